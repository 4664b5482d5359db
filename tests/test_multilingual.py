"""Articles in other languages than English keep their body.

The prose test of the decision step (cleaners.shape.is_sentence_like) once counted English function
words only, so a German or Spanish page had no "sentence" at all and was quarantined as having no
body: on the 835 non-English snippet pages of the dev set, 604 came out empty."""
import pytest

from cleaners.pipeline import clean_text
from cleaners.settings import Settings
from cleaners.shape import is_sentence_like

GERMAN = """Startseite
Politik
Wirtschaft
Sport

Stadtrat beschließt neuen Haushalt für das kommende Jahr

Der Stadtrat hat am Dienstagabend nach einer langen Debatte den Haushalt für das kommende Jahr beschlossen. Die Mehrheit der Abgeordneten stimmte für den Entwurf der Verwaltung.

Nach Angaben des Kämmerers sollen vor allem die Schulen und der öffentliche Nahverkehr von den zusätzlichen Mitteln profitieren. Die Opposition kritisierte, dass die Schulden weiter steigen.

Die Bürgerinnen und Bürger können den Haushaltsplan ab der kommenden Woche im Rathaus einsehen.

Impressum
Datenschutz
"""

SPANISH = """Inicio
Noticias
Deportes

El gobierno aprueba un plan para mejorar el transporte público

El consejo de ministros aprobó este martes un plan de inversiones para modernizar el transporte público en las principales ciudades del país.

Según el ministerio, la mayor parte de los fondos se destinará a la compra de autobuses eléctricos y a la ampliación de las líneas de metro.

Los sindicatos del sector valoraron la medida, aunque pidieron que se tenga en cuenta a los trabajadores.

Aviso legal
Política de privacidad
"""


@pytest.mark.parametrize("sentence", [
    "Der Stadtrat hat am Dienstagabend den Haushalt für das kommende Jahr beschlossen.",
    "El consejo de ministros aprobó este martes un plan de inversiones para el país.",
    "Le conseil municipal a adopté mardi soir le budget de la ville pour l'année prochaine.",
])
def test_prose_in_other_languages_is_sentence_like(sentence):
    assert is_sentence_like(sentence)


@pytest.mark.parametrize("line", ["Impressum Datenschutz Kontakt Newsletter Abonnieren.", "Inicio Noticias Deportes Cultura"])
def test_menus_in_other_languages_are_not(line):
    assert not is_sentence_like(line)


@pytest.mark.parametrize("text,first,last", [
    (GERMAN, "Der Stadtrat hat am Dienstagabend", "im Rathaus einsehen."),
    (SPANISH, "El consejo de ministros", "a los trabajadores."),
])
def test_article_in_another_language_keeps_its_body(text, first, last):
    doc = clean_text(text, Settings())
    assert doc.text.startswith(first)
    assert doc.text.endswith(last)
    for menu in ("Startseite", "Impressum", "Datenschutz", "Inicio", "Aviso legal"):
        assert menu not in doc.text


@pytest.mark.parametrize("sentence", [
    "Городской совет во вторник вечером утвердил бюджет города на следующий год.",
    "最近、親に虐待された子どもを児童相談所が守ることができなくて、子どもが亡くなる事件が続いています。",
    "市议会周二晚上批准了明年的城市预算，大多数议员投了赞成票。",
])
def test_prose_in_scripts_without_a_function_word_list_is_sentence_like(sentence):
    # no function-word list covers these: length (in characters, for unspaced scripts) and the
    # terminal mark decide
    assert is_sentence_like(sentence)


@pytest.mark.parametrize("line", ["Главная Новости Спорт", "首页 新闻 体育", "ニュース。"])
def test_short_lines_in_those_scripts_are_not(line):
    assert not is_sentence_like(line)
