"""An account form written out as text: field labels, messages and the dialog's calls
(newsclean.cleaners.rules.account). Written in wordings the dev pages do not hold; look-alikes are
articles about passwords, accounts and sign-ups, which speak of them rather than to the reader."""
import pytest

from newsclean.cleaners.rules.account import account_form
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.pipeline import clean_text
from tests.ruletools import BODY, alone, kind_of, survives

FORM_LINES = [
    # labels of the fields, marked required or followed by a colon
    "E-mail address *",
    "Repeat password:",
    "Pflichtfeld Benutzername*",
    "Mot de passe :",
    "Contraseña *",
    # a forgotten password or sign-in
    "Forgot your username?",
    "Kennwort vergessen? Hier zurücksetzen",
    "Identifiant oublié ?",
    "¿Has olvidado tu contraseña?",
    "Esqueceu sua senha?",
    "Nie pamiętasz hasła?",
    # requirements and validations
    "Your new password must contain at least one digit and one symbol.",
    "Das neue Kennwort muss mindestens zwölf Zeichen lang sein.",
    "Le mot de passe doit contenir au moins 10 caractères.",
    "La contraseña debe tener al menos 8 caracteres.",
    "Please provide a valid username.",
    "Bitte gib eine korrekte E-Mail-Adresse ein.",
    "Veuillez saisir une adresse e-mail valide.",
    "This email address is already in use by another member.",
    "Diese E-Mail-Adresse ist ungültig.",
    "The passwords don't match.",
    "Die Kennwörter stimmen nicht überein.",
    "Las contraseñas no coinciden.",
    "Invalid e-mail or password.",
    "Falscher Benutzername oder Kennwort",
    # the dialog's own calls
    "Log in with your Apple ID",
    "Mit deinem Spiegel-Konto anmelden",
    "Create a free account",
    "Kundenkonto erstellen",
    "Crear una cuenta",
    "Registrieren / Anmelden",
    "Sign in | Create account",
    "Sign in with Facebook",
    "Anmelden mit Google",
    "Stadtblog – Login",
    "Please enter your password.",
    "Bitte fülle alle Pflichtfelder aus.",
    "* Pflichtfelder",
    "Sign in to access The Daily Courier",
    "Log in to leave a comment",
    "Welcome! Log into your account",
    "your username",
    "Password recovery",
    "Reset your password",
    "A password will be e-mailed to you.",
    "Zum Antworten anmelden",
]

# Prose and headings about passwords and accounts: the article's, whatever the form's words in them.
LOOKALIKES = [
    "Studies show that 81% of data breaches happen because of poor password security.",
    "Root password",
    "Enable password input feedback",
    "Password-protected meetings",
    "Regular password changes every 90 days",
    "Upon entering an incorrect password, this will replace the usual message with a humorous insult.",
    "Experts say a password should be at least 12 characters and never reused across sites.",
    "Many banks now let customers create an account online in a few minutes, without visiting a branch.",
    "Users who forgot their password had to call the helpline, the report found.",
    "The council's new portal asks residents to register with an email address before they can pay parking fines.",
    "Enter your username and password, then choose Settings and turn on two-factor authentication.",
    "Passwords must be changed every 90 days under the new federal rules, a requirement critics call outdated.",
    "Annual conference 2024 – Registration",
    "Workshop – Anmeldung",
    "Anmeldung über die Website des Vereins",
    "Sign in to your bank's app and open the payments tab, then choose who to pay.",
    "Log in to your router's admin page at 192.168.0.1 and change the default password.",
    # documentation introducing a list of the rules a schema enforces
    "Password must contain at least:",
]


@pytest.mark.parametrize("line", FORM_LINES)
def test_a_form_line_is_removed_as_navigation_alone(line):
    proposal = alone(account_form, line)
    assert proposal is not None and proposal.kind == "navigation" and proposal.strong


@pytest.mark.parametrize("line", FORM_LINES[:12:3] + FORM_LINES[12:24:4])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_a_form_line_inside_or_under_an_article_goes_as_navigation(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", LOOKALIKES)
def test_prose_and_headings_about_passwords_and_accounts_are_not_a_form(line):
    assert alone(account_form, line) is None


@pytest.mark.parametrize("line", LOOKALIKES)
def test_prose_and_headings_about_passwords_and_accounts_stay_in_the_article(line):
    assert survives(line)


def test_a_long_line_that_opens_like_a_message_is_prose():
    long_line = ("Your password must contain at least one digit, the bank told customers in a letter this week, "
                 "and those who ignore the rule will be locked out of online banking from March, when the new "
                 "system goes live across all branches.")
    assert alone(account_form, long_line) is None


def test_a_sign_in_dialog_under_a_short_article_does_not_become_its_body():
    """A short article whose page also carries its sign-in dialog's messages as text: the dialog's
    lines all go, and none of them is left in the article (as on a broadcaster's page whose
    registration messages ran on for forty lines under a four-sentence story)."""
    dialog = ["Log in with your Apple ID", "E-mail address *", "Password:", "Forgot your username?",
              "Please provide a valid username.", "Your new password must contain at least one digit and one symbol.",
              "The passwords don't match.", "This email address is already in use by another member.",
              "Create a free account"]
    text = "\n\n".join(["Council backs bigger bus network", *BODY, *dialog])
    doc = clean_text(text, Settings())
    kept = doc.text.split("\n\n")
    assert kept == BODY
    assert {s.text: s.kind for s in doc.removed if s.text in dialog} == {line: "navigation" for line in dialog}
