"""Articles in other languages than English keep their body.

The prose test of the decision step (newsclean.cleaners.shape.is_sentence_like) once counted English function
words only, so a German or Spanish page had no "sentence" at all and was quarantined as having no
body: on the 835 non-English snippet pages of the dev set, 604 came out empty."""
import pytest

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.shape import is_sentence_like

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


# The same story in languages of the second, prose-only list (cleaners/prose_function_words.txt).
# Before it, every Finnish and Turkish sentence here and most Polish ones read as menus.
MORE_LANGUAGES = {
    "polish": ("Strona główna\nWiadomości\nSport\n\nRada miasta przyjęła nowy budżet\n\n",
               ["Rada miasta przyjęła we wtorek nowy budżet na przyszły rok po długiej debacie. Większość radnych głosowała za projektem przygotowanym przez urząd.",
                "Według skarbnika najwięcej pieniędzy trafi do szkół i na komunikację miejską, a opozycja krytykuje wzrost zadłużenia.",
                "Mieszkańcy mogą zapoznać się z planem budżetu w ratuszu od przyszłego tygodnia."],
               "\n\nPolityka prywatności\nKontakt\n"),
    "czech": ("Hlavní strana\nZprávy\nSport\n\nRada schválila nový rozpočet\n\n",
              ["Městská rada v úterý po dlouhé debatě schválila nový rozpočet na příští rok. Většina zastupitelů hlasovala pro návrh, který připravil úřad.",
               "Podle radního pro finance půjde nejvíce peněz do škol a na městskou dopravu, opozice ale kritizuje růst dluhu.",
               "Obyvatelé si mohou plán rozpočtu prohlédnout na radnici od příštího týdne."],
              "\n\nOchrana osobních údajů\nKontakt\n"),
    "finnish": ("Etusivu\nUutiset\nUrheilu\n\nValtuusto hyväksyi talousarvion\n\n",
                ["Kaupunginvaltuusto hyväksyi tiistaina pitkän keskustelun jälkeen ensi vuoden talousarvion. Suurin osa valtuutetuista äänesti esityksen puolesta.",
                 "Rahoitusjohtajan mukaan suurin osa rahoista menee kouluille ja joukkoliikenteelle, mutta oppositio arvostelee velan kasvua.",
                 "Asukkaat voivat tutustua talousarvioon kaupungintalolla ensi viikosta alkaen."],
                "\n\nTietosuoja\nYhteystiedot\n"),
    "hungarian": ("Címlap\nHírek\nSport\n\nElfogadták a költségvetést\n\n",
                  ["A városi közgyűlés kedden hosszú vita után elfogadta a jövő évi költségvetést. A képviselők többsége a hivatal által készített tervezetre szavazott.",
                   "A pénzügyi tanácsnok szerint a pénz nagy része az iskolákhoz és a tömegközlekedéshez kerül, az ellenzék azonban bírálta az adósság növekedését.",
                   "A lakosok a jövő héttől tekinthetik meg a költségvetési tervet a városházán."],
                  "\n\nAdatvédelem\nKapcsolat\n"),
    "turkish": ("Ana Sayfa\nHaberler\nSpor\n\nMeclis bütçeyi kabul etti\n\n",
                ["Belediye meclisi salı günü uzun bir tartışmanın ardından gelecek yılın bütçesini kabul etti. Meclis üyelerinin çoğu, yönetimin hazırladığı taslak için oy kullandı.",
                 "Mali işler sorumlusuna göre kaynakların büyük bölümü okullara ve toplu taşımaya ayrılacak, ancak muhalefet borcun artmasını eleştirdi.",
                 "Vatandaşlar bütçe planını gelecek haftadan itibaren belediye binasında inceleyebilecek."],
                "\n\nGizlilik\nİletişim\n"),
}


@pytest.mark.parametrize("language", sorted(MORE_LANGUAGES))
def test_prose_of_the_second_list_is_sentence_like(language):
    _, body, _ = MORE_LANGUAGES[language]
    assert is_sentence_like(body[0]) and is_sentence_like(body[1])


@pytest.mark.parametrize("language", sorted(MORE_LANGUAGES))
def test_article_in_a_language_of_the_second_list_keeps_its_body(language):
    head, body, tail = MORE_LANGUAGES[language]
    doc = clean_text(head + "\n\n".join(body) + tail, Settings())
    assert doc.text == "\n\n".join(body)


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


# Scripts whose sentences end in a mark of their own (Armenian ։, Ethiopic ።, Urdu ۔) or in none
# (Thai): before the prose test knew them, every such article came out with no body.
OWN_MARKS = {
    "armenian": ["Քաղաքային խորհուրդը երեքշաբթի օրը երկար քննարկումից հետո հաստատեց հաջորդ տարվա բյուջեն։",
                 "Ֆինանսների պատասխանատուի խոսքով՝ գումարի մեծ մասը կուղղվի դպրոցներին և հասարակական տրանսպորտին։",
                 "Բնակիչները կարող են ծանոթանալ բյուջեի նախագծին քաղաքապետարանում հաջորդ շաբաթվանից։"],
    "amharic": ["የከተማው ምክር ቤት ማክሰኞ ረጅም ክርክር ካደረገ በኋላ የሚቀጥለውን ዓመት በጀት አጸደቀ።",
                "እንደ ገንዘብ ኃላፊው ገለጻ አብዛኛው ገንዘብ ለትምህርት ቤቶችና ለሕዝብ ትራንስፖርት ይውላል።",
                "ነዋሪዎች የበጀት እቅዱን ከሚቀጥለው ሳምንት ጀምሮ በከተማው አዳራሽ ማየት ይችላሉ።"],
    "urdu": ["شہر کی کونسل نے منگل کو طویل بحث کے بعد اگلے سال کا بجٹ منظور کر لیا۔",
             "خزانچی کے مطابق زیادہ تر رقم اسکولوں اور پبلک ٹرانسپورٹ پر خرچ کی جائے گی۔",
             "شہری اگلے ہفتے سے ٹاؤن ہال میں بجٹ کا منصوبہ دیکھ سکتے ہیں۔"],
    "thai": ["สภาเมืองอนุมัติงบประมาณประจำปีหน้าเมื่อวันอังคารหลังจากการอภิปรายอันยาวนาน สมาชิกส่วนใหญ่ลงมติเห็นชอบร่างที่สำนักงานเตรียมไว้",
             "ตามข้อมูลของเหรัญญิก เงินส่วนใหญ่จะนำไปใช้กับโรงเรียนและระบบขนส่งสาธารณะ ขณะที่ฝ่ายค้านวิจารณ์การเพิ่มขึ้นของหนี้",
             "ประชาชนสามารถดูแผนงบประมาณได้ที่ศาลากลางตั้งแต่สัปดาห์หน้า"],
}


@pytest.mark.parametrize("language", sorted(OWN_MARKS))
def test_article_whose_script_has_its_own_sentence_mark_keeps_its_body(language):
    body = OWN_MARKS[language]
    assert all(is_sentence_like(s) for s in body)
    doc = clean_text("Home\nNews\n\n" + "\n\n".join(body) + "\n\nContact\n", Settings())
    assert doc.text == "\n\n".join(body)


@pytest.mark.parametrize("line", ["หน้าแรก ข่าว กีฬา", "ติดต่อเรา", "Գլխավոր Լուրեր։"])
def test_short_lines_in_those_scripts_are_not_prose(line):
    assert not is_sentence_like(line)


def test_sentence_marks_are_unicodes_sentence_terminals():
    regex = pytest.importorskip("regex")  # installed with dateparser (htmldate)
    from newsclean.cleaners.shape import _TERMINALS

    sterm = regex.compile(r"\p{Sentence_Terminal}")
    expected = {chr(c) for c in range(0x10000) if sterm.match(chr(c))} | {"\u2026"}
    assert set(_TERMINALS) == expected


@pytest.mark.parametrize("line, expected", [
    ("नमस्ते दुनिया, होम", ("नमस्ते", "दुनिया", "होम")),  # Devanagari: vowel signs and the virama
    ("কুষ্টিয়া-১ (দৌলতপুর)", ("কুষ্টিয়া", "১", "দৌলতপুর")),  # Bengali
    ("தமிழ் செய்திகள்", ("தமிழ்", "செய்திகள்")),  # Tamil
])
def test_words_keep_their_combining_marks(line, expected):
    # Python's \w leaves combining marks out: "नमस्ते" came out as "नमस", "त", so a three-word
    # Hindi byline counted as seven words and read as a standfirst
    from newsclean.cleaners.shape import words

    assert words(line) == expected


def test_combining_marks_are_unicodes_marks():
    # the character class built from ranges holds every mark of the plane and nothing else
    import re
    import unicodedata

    from newsclean.cleaners.shape import combining_marks

    marks = re.compile(f"[{combining_marks()}]")
    expected = {chr(c) for c in range(0x10000) if unicodedata.category(chr(c))[0] == "M"}
    assert {chr(c) for c in range(0x10000) if marks.match(chr(c))} == expected


HINDI_BODY = [
    "दिल्ली में लगातार बारिश और हथिनीकुंड बैराज से पानी छोड़े जाने के बाद यमुना नदी का जलस्तर गुरुवार सुबह खतरे के निशान से ऊपर पहुंच गया। प्रशासन ने निचले इलाकों में रहने वाले करीब दो हज़ार परिवारों को सुरक्षित स्थानों पर पहुंचाया है।",
    "पुराने लोहे के पुल पर सुबह आठ बजे जलस्तर 205.9 मीटर दर्ज किया गया, जबकि खतरे का निशान 205.33 मीटर है। अधिकारियों का कहना है कि अगले चौबीस घंटों में पानी और बढ़ सकता है, इसलिए राहत शिविरों में भोजन और दवाइयों की व्यवस्था की जा रही है।",
    "पूर्वी दिल्ली के ज़िलाधिकारी ने बताया कि नावों और गोताखोरों की टीमें तैनात कर दी गई हैं। उन्होंने लोगों से अपील की कि वे नदी के किनारे न जाएं और अफवाहों पर ध्यान न दें।",
    "मौसम विभाग ने अगले दो दिनों तक हल्की से मध्यम बारिश का अनुमान जताया है। विभाग के अनुसार पहाड़ी राज्यों में भारी बारिश जारी रहने से नदियों का जलस्तर अभी कुछ दिन ऊंचा बना रह सकता है।",
]
HINDI_PAGE = "\n\n".join([
    "होम", "देश", "विदेश", "खेल", "मनोरंजन", "बिज़नेस", "टेक्नोलॉजी", "वीडियो", "लॉग इन करें",
    "दिल्ली में यमुना का जलस्तर खतरे के निशान के पार, निचले इलाकों से लोगों को हटाया गया",
    "संवाददाता, नई दिल्ली", "अपडेटेड: 14 अगस्त 2025, 09:40 IST", "शेयर करें", "Facebook", "Twitter", "WhatsApp",
    *HINDI_BODY,
    "ये भी पढ़ें", "मुंबई में भारी बारिश से लोकल ट्रेनें प्रभावित", "क्रिकेट: भारत ने दूसरा टेस्ट सात विकेट से जीता",
    "सोने के दाम में लगातार तीसरे दिन गिरावट", "टैग्स", "दिल्ली", "यमुना", "बाढ़", "मौसम",
    "हमारे बारे में", "संपर्क करें", "गोपनीयता नीति", "© 2025 समाचार भारत. सर्वाधिकार सुरक्षित।",
])


def test_hindi_news_page_keeps_its_body_and_only_it():
    doc = clean_text(HINDI_PAGE, Settings())
    assert doc.title == "दिल्ली में यमुना का जलस्तर खतरे के निशान के पार, निचले इलाकों से लोगों को हटाया गया"
    assert doc.text == "\n\n".join(HINDI_BODY)  # the correspondent's line ("Correspondent, New Delhi") too
