"""Consent and privacy walls: "We use cookies … By continuing to browse you accept …", "Wir
verwenden Cookies, um dir die bestmögliche Erfahrung auf unserer Website zu bieten".

Such a notice names cookies (or consent, GDPR, a privacy policy) and is the site speaking: as "we"
or to "you", with a consent verb or of the web site itself ("… on our website", "by continuing to
browse"). A news sentence about cookies reports what others do, in the third person; a recipe's
cookies are baked, not accepted on a web site. The
pronouns and verbs are a small closed vocabulary per language, listed for the languages the dev
pages hold most (English, German, French, Spanish, Italian, Portuguese, Dutch, Polish).

No named kind covers them, so they are `boilerplate` with their own rule name.
"""
from __future__ import annotations

import re

from newsclean.cleaners.rules.base import Doc, Line, Proposal, when, whole_line

# A site's privacy policy, named in the languages of the cue rules.
_PRIVACY_POLICY = (r"\bprivacy (?:policy|settings|preferences)\b|\bdatenschutz-?(?:erklärung|bestimmungen|hinweisen?|richtlinien?)\b"
                   r"|\bpolitique de confidentialité\b|\bpolítica de privacidad(?:e)?\b|\binformativa (?:sulla )?privacy\b"
                   r"|\bprivacy(?:verklaring|beleid)\b|\bpolityk[aię] prywatności\b")
_COOKIE = re.compile(r"\bcookies?\b|\bconsent\b|\bgdpr\b|\bdsgvo\b|" + _PRIVACY_POLICY, re.I)
# The reader ticking a sign-up form's box, in the first person, naming the privacy policy: "Ich bin mit
# der Verarbeitung meiner Daten nach der Datenschutzerklärung einverstanden", "I agree to the privacy
# policy" (not a quoted "I never accept cookies").
_FIRST_PERSON = re.compile(r"(?-i:\bI\b)|\b(?:ich|je|j['’]|yo|acepto|io|eu|ik|akceptuję|wyrażam)\b", re.I)
_NAMES_POLICY = re.compile(_PRIVACY_POLICY, re.I)
# The site's terms, which a sign-up form asks the reader to accept as it asks for the privacy policy:
# in the first person ("I agree to the Terms of Use", "Acepto los términos y condiciones") or as the
# site's own ("By registering you accept our terms of service", "Bitte stimme unseren
# Nutzungsbedingungen zu"). A report on an app's terms names them as its, theirs or the company's.
_TERMS = (r"terms\ (?:of\ (?:use|service)|and\ conditions)|nutzungsbedingungen|agb|allgemeinen\ geschäftsbedingungen"
          r"|términos\ (?:y\ condiciones|de\ uso)|condiciones\ de\ uso|conditions\ (?:générales|d['’]utilisation)"
          r"|termini\ (?:e\ condizioni|di\ (?:uso|servizio))|termos\ (?:de\ uso|e\ condições)|algemene\ voorwaarden|regulamin\w*")
# named as the terms a form means: after an article, a preposition or the verb ("agree to the Terms",
# "mit den AGB", "Acepto términos"), not a story's "had to accept changed terms of service"
_NAMES_TERMS = re.compile(
    rf"""\b(?:the|die|den|der|los|las|les|la|le|i|os|as|de|het|to|with|mit|aux|con|com|met|acepto|accepte|akzeptiere|accept|agree)
        \ (?:{_TERMS})\b""", re.I | re.X)
_SITES_TERMS = re.compile(
    rf"""\b(?:our|unser(?:e|en|er|em)?|nos|nuestr[oa]s|nostr[ie]|noss[oa]s|onze)\ (?:{_TERMS})\b""", re.I | re.X)
# The site speaking of itself (first person plural).
SITE_VOICE = re.compile(
    r"""\b(?:we|our|us|wir|unser\w*|uns|nous|notre|nos|utilizamos|usamos|nuestr[oa]s?|noi|nostr[oaie]
    |utilizziamo|usiamo|nós|noss[oa]s?|wij|onze|ons|gebruiken|używamy|stosujemy|wykorzystujemy|nasz\w*)\b""",
    re.I | re.X)
# The site addressing the reader (second person; not the forms that also read as "they", "her" or
# "I": German "sie", "ihr", Dutch "je", Portuguese "seu").
READER_ADDRESS = re.compile(
    r"""\b(?:you|your|du|dir|dich|dein\w*|vous|votre|vos|tu|tus|usted|ustedes|tuo|tua|tuoi|vostr[oaie]
    |você|voce|uw|jouw|państw[oa]|twoj\w*)\b""",
    re.I | re.X)
# Asking for a choice about the notice.
_CONSENT = re.compile(
    r"""\b(?:accept|agree|consent|manage|preferences|settings|opt[ -]?out|allow|reject|decline
    |akzeptier\w*|zustimm\w*|zustimmung|einverstanden|ablehn\w*|einstellung\w*|erlaub\w*
    |accept\w*|refus\w*|consent\w*|paramétr\w*|param[eè]tre\w*|gérer|préférences
    |acept\w*|rechaz\w*|consentimiento|configuraci\w*|preferencias
    |accett\w*|rifiut\w*|consenso|preferenze|impostazioni
    |aceit\w*|recus\w*|consentimento|preferências|configurações
    |accepteer\w*|akkoord|weiger\w*|toestemming|instellingen|voorkeuren
    |akceptuj\w*|zgod\w*|ustawie\w*)\b
    # German's separable verb: "Bitte stimme unserer Datenschutzerklärung zu", "… stimmen Sie … zu"
    |\bstimm(?:e|en|st|t)\b[^.!?]{0,80}?\bzu\b""",
    re.I | re.X)
# The web site itself, or browsing it: "… on our website", "By continuing to browse …".
_WEB = re.compile(
    r"""\b(?:website|web\ site|site|browser|browsing|browse|continu\w*|webseite|website|seite|weitersurfen|surfen
    |navigateur|naviguer|navigation|sitio|navegador|navegando|navegación|sito|navigazione|página|navegação
    |strona|stronie|strony|przeglądar\w*|przeglądani\w*)\b""",
    re.I | re.X)


# Every _COOKIE match holds one of these (lower case).
_KEYS = ("cook", "consent", "gdpr", "dsgvo", "privacy", "datenschutz", "confidentialit", "privacidad", "prywatno")
# Every _NAMES_TERMS match holds one of these (lower case).
_TERMS_KEYS = ("terms", "bedingungen", "agb", "términos", "condiciones", "conditions", "termini", "termos", "voorwaarden", "regulamin")
_GATE_KEYS = _KEYS + _TERMS_KEYS


def _may_name_cookies(low: str) -> bool:
    """False only where _COOKIE and _NAMES_TERMS cannot match: none of _GATE_KEYS in `low`, the
    line's gate text (Line.lower)."""
    return any(key in low for key in _GATE_KEYS)


def _names_cookies():
    """_may_name_cookies over the lines frame (newsclean.cleaners.engine.rule_conditions)."""
    import polars as pl

    return pl.col("lower").str.contains_any(list(_GATE_KEYS))


NOTICE_MAX_WORDS = 60  # a consent notice is a paragraph; a longer one is prose about cookies
# ... unless it opens as a site's cookie banner does, whose plugins print one long paragraph ("This
# website uses cookies to improve your experience while you navigate through the website. Out of
# these, …", ~90 words)
BANNER_MAX_WORDS = 150
_BANNER_OPENING = re.compile(
    r"""^(?:this\ (?:web\ ?)?site|our\ (?:web\ ?)?site|we|diese\ (?:web)?seite|unsere\ (?:web)?seite|wir|ce\ site|nous|este\ sitio|utilizamos|usamos)
        \ (?:\w+\ )?(?:uses?|verwendet|verwenden|nutzt|nutzen|utilise|utilisons|utiliza)\ cookies\b""",
    re.I | re.X)
# A banner's description of its cookie categories, each a line of its own under it ("Necessary cookies
# are absolutely essential for the website to function properly.", "Analytical cookies are used to
# understand how visitors interact with the website."), and its table's rows ("This cookie is set by
# GDPR Cookie Consent plugin."): the site describing its own cookies, of itself.
_COOKIE_CATEGORY = re.compile(
    r"""^(?:(?:strictly\ )?necessary|essential|functional|functionality|performance|analytics?|analytical|statistics?
        |advertisement|advertising|marketing|targeting|preferences?|social\ media|other\ uncategori[sz]ed)
        \ cookies\ (?:are|help|include|allow|enable|ensure|collect|track|is)\b[^.!?]{0,160}\b(?:website|site|visitors?|users?)\b
      | ^this\ cookie\ is\ (?:set|used)\ by\b | ^cookie\ duration\ description\b""",
    re.I | re.X)


@when(_names_cookies)
def cookie_consent(line: Line, doc: Doc) -> Proposal | None:
    t = line.text
    if not _may_name_cookies(line.lower) or line.n_words > BANNER_MAX_WORDS \
            or (line.n_words > NOTICE_MAX_WORDS and not _BANNER_OPENING.search(t)):
        return None
    if not _COOKIE.search(t):
        # no cookie or privacy policy named: a form's consent to the site's terms, a notice's length
        if line.n_words <= NOTICE_MAX_WORDS and _CONSENT.search(t) and (
                _SITES_TERMS.search(t) or _FIRST_PERSON.search(t) and _NAMES_TERMS.search(t)):
            return whole_line("boilerplate", "cookie_consent")
        return None
    if (SITE_VOICE.search(t) or READER_ADDRESS.search(t)) and (_CONSENT.search(t) or _WEB.search(t)) \
            or _FIRST_PERSON.search(t) and _CONSENT.search(t) and (_NAMES_POLICY.search(t) or _NAMES_TERMS.search(t)) \
            or _COOKIE_CATEGORY.search(t):
        return whole_line("boilerplate", "cookie_consent")
    return None
