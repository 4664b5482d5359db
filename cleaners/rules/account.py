"""The site's account forms written out as text: the sign-in, registration and password-reset
dialogs a page carries hidden, whose labels, buttons and messages a scraper saves with the article
("Password must be at least 8 characters.", "Bitte geben Sie eine gültige E-Mail-Adresse an.",
"Passwort vergessen?", "Create a new account", "Mit ZDF-Konto anmelden.").

Such a line reads as a sentence, so the model keeps it inside a body, and a dialog's dozens of
messages after a short article extend the body over them. What gives it away is a form's own
voice: a field named as a label, or a message about that field (a requirement, a validation, a
forgotten password, passwords that do not match, an address already registered), or the dialog's
own calls to sign in or open an account. An article about passwords speaks of them in the third
person and at length ("Studies show that 81% of breaches involve weak passwords", "Root password",
"Enable password input feedback"): only a short line that opens with such a form's words is
taken, in English, German, French, Spanish, Portuguese, Italian, Polish and Dutch.
"""
from __future__ import annotations

import re

from newsclean.cleaners.rules.base import Doc, Line, Proposal, starts_with, whole_line

MAX_WORDS = 30  # a form's message is a sentence or two; a longer line is prose about forms

# The fields a sign-in or registration form asks for, in each language.
_PASSWORD = (r"(?:pass\ ?word|passwort|kennwort|mot\ de\ passe|contrase[ñn]a|senha|has[łl]o|wachtwoord|parola\ d'accesso"
             r"|password\ di\ accesso)")
_ADDRESS = r"(?:e-?mail(?:[-\ ]?(?:adresse|address|adress|-?adres))?|adresse\ (?:e-?mail|[ée]lectronique)|correo\ electr[óo]nico)"
_USER = r"(?:user\ ?name|benutzer(?:name)?|nutzername|anmeldename|nom\ d'utilisateur|identifiant|(?:nombre\ de\ )?usuario|utilizador|nazwa\ u[żz]ytkownika|gebruikersnaam)"
_FIELD = rf"(?:{_PASSWORD}|{_ADDRESS}|{_USER})"
_ACCOUNT = r"(?:account|konto|benutzerkonto|kundenkonto|nutzerkonto|compte|cuenta|conta|profil)"

# A field's label on its own line, marked required or followed by a colon: "E-Mail-Adresse*",
# "Pflichtfeld Passwort*", "Password:", "Passwort wiederholen". A bare "Password" or "E-mail" line
# is left to the share-bar and menu rules: an article may head a section so.
_LABEL = re.compile(
    rf"""^(?:(?:pflichtfeld|required|obligatoire|obligatorio)\s*:?\s*)?
    (?:(?:confirm|repeat|new|current|old|neues|aktuelles|altes|nouveau|nueva|nuevo|nova|nowe|nieuw)\s+)?{_FIELD}
    (?:\s+(?:wiederholen|best[äa]tigen|confirmation|confirmar|bevestigen|powt[óo]rz))?
    (?:\s*\*\s*:?|\s*:\s*\*?|\s+\(required\)|\s*\*?\s*\((?:pflicht|erforderlich)\))$""",
    re.I | re.X)
# A forgotten password or sign-in: "Forgot your password?", "Passwort vergessen?", "Mot de passe
# oublié ?", "¿Olvidaste tu contraseña?", "Locked out of your account? Get help here."
_FORGOT = re.compile(
    rf"""^(?:(?:haben\s+sie\s+ihr|hast\s+du\s+dein)\s+)?(?:passwort|kennwort|zugangsdaten)\s+vergessen\b
    | ^forgot(?:ten)?\s+(?:your\s+)?(?:{_PASSWORD}|{_USER}|login|log-?in\s+details|e-?mail)\b
    | ^(?:{_PASSWORD}|identifiant|login)\s+(?:oubli[ée]|vergeten|dimenticat[ao])\b
    | ^¿?(?:olvidaste|has\s+olvidado|olvid[óo])\s+(?:tu|su)\s+(?:contrase[ñn]a|usuario)\b
    | ^esqueceu\s+(?:a\s+|sua\s+)?(?:senha|palavra-passe)\b
    | ^nie\s+pami[ęe]tasz\s+has[łl]a\b
    | ^locked\s+out\s+of\s+your\s+account\b
    | ^(?:{_PASSWORD}\s+(?:recovery|reset|zur[üu]cksetzen|wiederherstellen)|(?:recover|reset)\s+(?:your\s+)?{_PASSWORD})\s*[.!?]?$
    | ^(?:a\s+)?(?:new\s+)?{_PASSWORD}\s+will\s+be\s+(?:e-?mailed|sent)\s+to\s+you\b""",
    re.I | re.X)
# A requirement or a validation the form states of its field: "Password must be at least 8
# characters long", "Das Passwort muss mindestens einen Großbuchstaben enthalten", "Please enter a
# valid email address", "Diese E-Mail-Adresse ist bereits registriert", "Passwords do not match",
# "Invalid username or password", "Ungültiger Benutzer/Kennwort".
_MESSAGE = re.compile(
    rf"""^(?:(?:the|your|das|dein|ihr|le|votre|ton|la|tu|su|a\s+sua|a|o\s+seu|il\s+tuo|la\s+tua|het|je|uw|twoje)\s+)?
    (?:(?:new|neue|neues|nouveau|nueva|nuevo|nova|nowe|nieuwe?)\s+)?{_PASSWORD}\s+
    (?:must|needs\s+to|muss|doit|debe|deve|musi|moet)\s+(?:\w+\s+){{0,3}}?
    (?:(?:at\ least|mindestens|au\ moins|al\ menos|pelo\ menos|almeno|co\ najmniej|minimaal|minstens)\b
       |(?:contain|include|have|enthalten|beinhalten|contenir|contener|conter|zawiera[ćc]|bevatten)\b)
    # a request for a field: qualified as valid ("Please enter a valid email address"), or the
    # whole line ("Bitte trage eine E-Mail-Adresse ein.")
    | ^(?:please\s+|bitte\s+|veuillez\s+|por\s+favor,?\s+)?
      (?:enter|provide|geben\s+sie|gib|trage|tragen\s+sie|saisir|saisissez|entrez|introduce|introduzca|ingresa|insira|digite|wprowad[źz]|vul)\s+
      (?:a|an|your|eine|ihre|deine|une|votre|un|tu|su|um|o\s+seu|seu|sua|je|uw)?\s*
      (?:(?:valid|correct|g[üu]ltige|korrekte|richtige|valide|correcte|v[áa]lid[oa]|poprawny|geldig)\s+{_FIELD}\b
         |{_FIELD}\s+(?:valide|v[áa]lid[oa]|correct[ea]?|corret[oa]|poprawny|geldig)\b
         |{_FIELD}(?:\s+(?:an|ein))?\s*[.!]?$)
    | ^(?:this|that|diese|cette|este|esta|esse|essa|ten|dit|deze)\s+{_ADDRESS}\s+
      (?:is\s+(?:already|not\s+valid|invalid|not\s+registered)|ist\s+(?:bereits|schon|ung[üu]ltig|nicht)|scheint\s+nicht
        |existiert\s+(?:bei\s+uns\s+)?(?:leider\s+)?nicht|est\s+d[ée]j[àa]|n'est\s+pas\s+valide|ya\s+est[áa]|no\s+es\s+v[áa]lid|j[áa]\s+est[áa])\b
    | ^(?:the\s+)?{_PASSWORD}s?\s+(?:do\s+not|don'?t|does\s+not|doesn'?t)\s+match\b
    | ^(?:die\s+)?(?:eingegebenen\s+)?(?:passw(?:ö|oe)rter|kennw(?:ö|oe)rter)\s+stimmen\s+nicht\s+[üu]berein\b
    | ^les\s+mots\s+de\s+passe\s+ne\s+(?:correspondent|sont)\s+pas\b
    | ^las\s+contrase[ñn]as\s+no\s+coinciden\b
    | ^(?:invalid|incorrect|wrong|unknown)\s+{_FIELD}(?:\s*(?:/|or|and|oder|und|ou|o|y)\s*{_FIELD})?\s*[.!]?$
    | ^(?:ung[üu]ltige[rs]?(?:/s)?|falsche[rs]?|unbekannte[rs]?)\s+{_FIELD}(?:\s*(?:/|oder|und)\s*{_FIELD})?\s*[.!]?$
    | ^(?:zu\s+dieser\s+{_ADDRESS}\s+ist\s+kein|no\s+account\s+(?:was\s+)?found\s+(?:for|with)\s+this)\b
    | ^(?:please\s+)?(?:fill\s+(?:in|out)|complete)\s+(?:all\s+)?(?:the\s+)?(?:required|mandatory)\s+fields\b
    | ^(?:bitte\s+)?(?:f[üu]lle|f[üu]llen\s+sie)\s+(?:bitte\s+)?alle\s+pflichtfelder\b
    | ^(?:(?:\*\s*)?(?:pflichtfelder|required\s+fields?|champs\s+obligatoires|campos\s+obligatorios)\s*\*?:?\s*\*?)$""",
    re.I | re.X)
# The dialog's own calls: "Sign in with your Google account", "Login mit Facebook", "Mit ZDF-Konto
# anmelden.", "Create a new account", "Neues Konto anlegen", "Anmelden Registrieren", "Log in or register".
_CALL = re.compile(
    rf"""^(?:log\s?in|sign\s?in|anmelden|einloggen)\s+(?:mit|with|via|using)\s+(?:(?:deinem|ihrem|your)\s+)?
      [\w.-]+(?:(?:\s+[\w.-]+)?[-\s](?:{_ACCOUNT}|id))?\.?$
    | ^(?:mit|[üu]ber)\s+(?:deinem\s+|ihrem\s+|dem\s+)?[\w.-]+-?{_ACCOUNT}\s+(?:anmelden|einloggen|registrieren)\.?$
    | ^(?:create|register|open)\s+(?:a\s+|an\s+|your\s+)?(?:new\s+|free\s+)?{_ACCOUNT}(?:\s+(?:create|register)\s+(?:a\s+|an\s+)?(?:new\s+|free\s+)?{_ACCOUNT})?\.?$
    | ^(?:neues\s+|ein\s+)?(?:{_ACCOUNT})\s+(?:anlegen|erstellen|er[öo]ffnen)(?:\s+(?:neues\s+)?(?:{_ACCOUNT})\s+(?:anlegen|erstellen))?\.?$
    | ^(?:cr[ée]er\s+un\s+compte|crear\s+(?:una\s+)?cuenta|criar\s+(?:uma\s+)?conta|za[łl][óo][żz]\s+konto|account\s+aanmaken)\.?$
    | ^(?:neu\s+)?(?:registrieren|einloggen|anmelden)(?:\s*(?:/|\||oder|und)?\s*(?:registrieren|einloggen|anmelden))?$
    | ^(?:log\s?in|sign\s?in)\s*(?:/|\||or)\s*(?:register|sign\s?up|create\s+(?:an\s+)?account)$
    # a prompt to sign in first ("Sign in to access Harper's Magazine", "Log in to leave a comment",
    # "Welcome! Log into your account", "Zum Antworten anmelden")
    | ^(?=.{{0,60}}$)(?:welcome!?\s*)?(?:sign|log)\s?in(?:to)?\s+(?:to\s+)?(?:your\s+account|access|continue|comment|leave\s+a\s+(?:comment|reply)|reply|post|vote)\b
    | ^(?:zum\s+(?:antworten|kommentieren)\s+(?:bitte\s+)?(?:anmelden|einloggen)|melden\s+sie\s+sich\s+an,?\s+um\b)
    # a field's placeholder ("your username", "Ihr Passwort")
    | ^(?:your|ihr|dein|votre|tu|su)\s+{_FIELD}$
    # a dialog's heading: the site's name, then what the dialog does ("Mein ZDF – Login")
    | ^[^\s–—|].{{0,30}}?\s[–—|-]\s(?:log\s?in|sign\s?in|neues\s+konto\s+anlegen|create\s+(?:an\s+)?account)$""",
    re.I | re.X)


@starts_with(_LABEL, _FORGOT, _MESSAGE, _CALL)
def account_form(line: Line, doc: Doc) -> Proposal | None:
    """A line of an account form (_LABEL, _FORGOT, _MESSAGE, _CALL): removed whole, as navigation."""
    if line.n_words > MAX_WORDS:
        return None
    text = line.text
    # a message that ends in a colon introduces what follows (documentation's "Password must
    # contain at least:" over a list of rules): the article's, as a label's colon is the form's
    message = _MESSAGE.search(text) is not None and not text.rstrip().endswith(":")
    if message or _LABEL.search(text) or _FORGOT.search(text) or _CALL.search(text):
        return whole_line("navigation", "account_form")
    return None
