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


# A form's consent to the site's terms, with no privacy policy named (written for the test): in the first
# person, or the terms named as the site's own; German's separable verb ("stimme … zu")
@pytest.mark.parametrize("line", [
    "I have read and accept the Terms and Conditions",
    "By registering, I agree to the terms of service.",
    "Acepto las condiciones de uso.",
    "Ich bin mit den AGB einverstanden.",
    "J'accepte les conditions générales d'utilisation",
    "By creating an account you accept our Terms of Use.",
    "Bitte stimme unseren Nutzungsbedingungen zu.",
    "Mit der Anmeldung stimmen Sie unseren Datenschutz-Bestimmungen zu.",
])
def test_sign_up_forms_naming_the_sites_terms_are_consent_notices(line):
    from newsclean.cleaners.rules.consent import cookie_consent
    from tests.ruletools import alone

    assert alone(cookie_consent, line) is not None
    assert kind_of(line, "after") == "boilerplate"


# Stories about terms of service: the app's or the company's terms, accepted by others or in the past,
# and a German "Stimme" (voice) with "zu"
@pytest.mark.parametrize("line", [
    "By using the app, you agree to its terms of service, which let the company read your messages.",
    "When they click the box agreeing to terms and conditions, few users realise what they signed.",
    "Als ich mich angemeldet habe, musste ich keine veränderten Nutzungsbedingungen akzeptieren.",
    "Die Abgeordnete gab ihre Stimme zu dem Gesetz erst nach langer Debatte ab.",
    "The regulator said the platform's terms and conditions were unfair to consumers who accept them.",
])
def test_stories_about_terms_of_service_survive(line):
    from newsclean.cleaners.rules.consent import cookie_consent
    from tests.ruletools import alone

    assert alone(cookie_consent, line) is None
    assert survives(line)


BANNER = ("This site uses cookies to give you a better experience while you move through its pages. Of these, the cookies "
          "marked as necessary are kept in your browser because the site cannot work without them. We also use cookies "
          "from other companies that help us measure how visitors use the site. They are kept in your browser only if you "
          "agree. You can turn them off, although turning some of them off may change how the pages behave for you.")


@pytest.mark.parametrize("line", [
    # a consent plugin's banner runs past the 60 words of a notice, in one paragraph
    BANNER,
    # and its categories and table, each a line of its own
    "Functional cookies help us offer features such as sharing a page on social networks and collecting feedback from visitors.",
    "Strictly necessary cookies are required for the website to work and cannot be switched off.",
    "This cookie is set by the consent plugin to remember whether the visitor accepted the analytics cookies.",
    "Cookie Duration Description consent-analytics 11 months Records whether the visitor agreed to the analytics cookies.",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_a_consent_plugins_banner_categories_and_table_are_removed(line, where):
    assert len(BANNER.split()) > 60
    assert kind_of(line, where) == "boilerplate"


@pytest.mark.parametrize("line", [
    "Performance cookies are used by most large retailers, the regulator found in its survey of 200 shops.",
    # a long paragraph in the first person plural that does not open as a banner keeps the notice's
    # 60-word cap
    "We tested forty news websites to see how they use cookies, and what we found should worry anyone who reads the "
    "news online. Most of the sites placed trackers before asking for consent, several ignored a refusal, and two kept "
    "dozens of advertising partners in a list that no reader could scroll to the end of, even on a large screen, in the "
    "time we gave ourselves.",
])
def test_articles_about_cookie_categories_survive(line):
    from newsclean.cleaners.rules.consent import cookie_consent
    from tests.ruletools import alone

    assert alone(cookie_consent, line) is None
    assert survives(line)
