import pytest

from tests.ruletools import kind_of, survives


@pytest.mark.parametrize("line", [
    "We use cookies to improve your experience. By continuing to browse you accept our use of cookies.",
    "This site uses cookies. You can manage your preferences at any time.",
    "We and our partners use cookies to personalise content. Click Accept to consent.",
])
@pytest.mark.parametrize("where", ["before", "middle", "after"])
def test_cookie_walls_removed(line, where):
    assert kind_of(line, where) == "boilerplate"


@pytest.mark.parametrize("line", [
    "Regulators said websites that track visitors with cookies must first ask them to accept, the ruling said.",
    "The bakery sold more than 2,000 cookies at the fair, and organisers said they would continue the event next year.",
])
def test_sentences_about_cookies_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", [
    "Wir verwenden Cookies, um dir die bestmögliche Erfahrung auf unserer Website zu bieten.",
    "Nous utilisons des cookies pour améliorer votre expérience. En continuant à naviguer, vous acceptez leur utilisation.",
    "Utilizamos cookies propias y de terceros. Si continúa navegando, consideramos que acepta su uso.",
    "Utilizziamo i cookie per migliorare la tua esperienza. Continuando la navigazione accetti il loro uso.",
    "Wij gebruiken cookies om onze website te verbeteren. Door verder te gaan ga je akkoord.",
])
@pytest.mark.parametrize("where", ["before", "after"])
def test_cookie_walls_in_other_languages_removed(line, where):
    assert kind_of(line, where) == "boilerplate"


@pytest.mark.parametrize("line", [
    "Continúa horneando tus cookies durante diez minutos más, hasta que los bordes estén dorados.",
    "We made these cookies for you and your family, and they kept well for a week in a tin.",
    "Die Verbraucherschützer kritisieren, dass viele Webseiten Cookies ohne Zustimmung der Nutzer setzen.",
    "The U.N.-backed principle of free, prior and informed consent must be upheld, the paper states.",
    '"I never accept cookies on any website," said the researcher, who studies online tracking.',
    "Die Datenschutzerklärung des Konzerns sei unklar, kritisierten die Verbraucherschützer am Montag.",
    "Ich halte die neue Datenschutzerklärung für unverständlich, sagte die Abgeordnete.",
])
def test_other_sentences_about_cookies_or_consent_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", [
    "Ich bin damit einverstanden, dass meine Angaben gemäß der Datenschutzerklärung gespeichert werden.",
    "I agree to the Terms of Use and the Privacy Policy.",
    "Mit dem Absenden akzeptieren Sie unsere Datenschutzbestimmungen.",
    "Acepto la política de privacidad y el aviso legal.",
])
def test_sign_up_forms_naming_the_privacy_policy_are_consent_notices(line):
    from newsclean.cleaners.rules.consent import cookie_consent
    from tests.ruletools import alone

    assert alone(cookie_consent, line) is not None
