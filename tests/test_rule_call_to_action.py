import pytest

from tests.ruletools import kind_of, survives

# (lines, where each is placed in an article): every one is a call to action there
CALLS_TO_ACTION = [
    # paywall labels and gift buttons; German buttons with words between; a comment form's checkbox
    # in WordPress's languages; following the news on social media
    ([
        "Article réservé aux abonnés", "Offrir l'article", "Artikel verschenken", "Nur für Abonnenten",
        "Exclusivo para suscriptores", "Riservato agli abbonati",
        "Jetzt für Golf-Lotse Top-News anmelden", "Jetzt kostenlos die App herunterladen!",
    ], ['before', 'middle']),
    ([
        "Save my name, email, and website in this browser for the next time I comment.",
        "Meinen Namen, meine E-Mail-Adresse und meine Website in diesem Browser für die nächste Kommentierung speichern.",
        "Enregistrer mon nom, mon e-mail et mon site dans le navigateur pour mon prochain commentaire.",
        "Guardar mi nombre, correo electrónico y web en este navegador para la próxima vez que comente.",
        "Salva il mio nome, email e sito web in questo browser per la prossima volta che commento.",
        "Sigue toda la información de Economía y Negocios en Facebook y X, o en nuestra newsletter semanal",
        "Follow all the latest news on Facebook and X, or sign up for our morning briefing",
    ], ['middle', 'after']),
    # English prompts
    ([
        'What do you think?',
        'Have a tip? Send it to us! Email In Touch at',
        'Sign up for our newsletter',
        'Share this article',
        'Follow us on Twitter',
        'Tell us what you think in the comments below.',
        'Got a news tip? Email us at tips@example.com',
        'Subscribe now for unlimited access',
        'Click here to read more',
        'Let us know your thoughts on Facebook.',
    ], ['middle', 'after']),
    # the same in other languages
    ([
        'Kostenlos registrieren und weiterlesen',
        'Folgen Sie uns auf Facebook',
        'War dieser Artikel hilfreich?',
        'Teilen Sie diesen Artikel',
        'Abonnez-vous à notre newsletter',
        'Suscríbete a nuestro boletín',
        'Síguenos en Twitter',
        'Iscriviti alla newsletter',
        'Inscreva-se no nosso canal',
        'Volg ons op Facebook',
        'Zapisz się do newslettera',
    ], ['middle', 'after']),
    # newsletters into the inbox, contacting the author
    ([
        'Get the latest news delivered to your inbox.',
        'Email the author at jdoe@example.com',
        'Contact reporter John Doe at 555-1234 or jdoe@example.com.',
        'Follow John Doe on Twitter: @johndoe',
    ], ['middle', 'after']),
    # a paywall or an app speaking to the reader; a newsroom asking for stories
    ([
        'This article is for subscribers only.',
        'You have reached your limit of free articles this month.',
        'Already a subscriber? Log in',
        'Create a free account to continue reading',
        'To continue reading, subscribe now.',
        'Turn on notifications',
        'Get the app',
        'Got a story? Contact our newsroom.',
    ], ['before', 'middle', 'after']),
    # contact lines, alert prompts, paywall lines and appeals in other languages
    ([
        'Contact Jane Doe at jdoe@example.com or 555-123-4567.',
        'Never miss a story: sign up for alerts',
        'Press play to listen to this article',
    ], ['middle']),
    ([
        'Du willst nichts mehr verpassen?',
        'Kostenlos zum Newsletter anmelden',
        'Unterstütze RosaMag',
        'Unterstützen Sie diese Form des Journalismus',
        '¡Mira lo que tiene nuestro canal de YouTube!',
        'To view the full story, please subscribe to The Example Times.',
        'Instant access to the full article PDF.',
        "If you're seeing this message but you're already a subscriber, you can log in for immediate access.",
        'Was denkst du?',
        'Ihre Meinung zu diesem Thema',
        'Gefällt dir unser Magazin?',
        'Valora esta noticia',
        'Je fais un don à Attac',
        'Zapraszamy też do subskrypcji',
        'Never miss the latest news by signing up',
        'Lust auf mehr?',
        'Sie wollen mehr von uns?',
        'Sie lesen gern Example.com?',
        'Verraten Sie gerne in den Kommentaren:',
        'Nos siga no Instagram',
    ], ['after']),
    # appeals for support
    ([
        'Our journalism needs your support. Please subscribe today to Example.com.',
        'Please consider supporting local journalism with a subscription.',
    ], ['after']),
    # a blog asking the reader what they made of the post, or for a tip
    ([
        'Did you enjoy this guide? Share it with a friend who is planning a trip.',
        'If you liked this tutorial, you might also like:',
        'Enjoyed this recipe? Leave a star rating below!',
        'Buy me a coffee',
        'Support us on Patreon',
        'Pin this for later!',
        'Did you make this recipe? Tag @annascooks on Instagram!',
    ], ['middle', 'after']),
    # feedback widgets
    ([
        'Was this article helpful?',
        'Did you find this page useful?',
        'Did this answer your question?',
        'Cet article vous a-t-il été utile ?',
        '¿Te ha resultado útil este artículo?',
        'Questo articolo ti è stato utile?',
    ], ['after']),
    # the comment form's and the paywall's log-in prompts
    ([
        'Please log in, or sign up for a new account and purchase a subscription to read or post comments.',
        'You must be logged in to post a comment.',
        'Log in or register to post comments',
        'Register for free to continue reading.',
        'Your email address will not be published. Required fields are marked *',
    ], ['after']),
    # a sign-up form's promise under its e-mail field
    ([
        'We will never share your email address.',
        'We respect your privacy. Unsubscribe at any time.',
        'Join our weekly gardening newsletter',
        'Be the first to hear about our spring workshops.',
        'Keep up with the latest in urban cycling',
        'Receive weekly recipes, delivered to your inbox',
        'Help us spread the word about the festival!',
    ], ['middle', 'after']),
    # share and comment buttons in other languages
    ([
        'Artikel teilen',
        'Diesen Artikel teilen',
        'Jetzt kommentieren',
        'Partager sur Facebook',
    ], ['middle']),
]

# Sentences that use the same words: reader words inside a sentence, third persons, and words that
# only look like the imperatives
LOOK_ALIKES = [
    'The mayor announced the decision on Twitter late Tuesday, saying the vote was long overdue.',
    '"What do you think we should do now?" one resident asked the council during the public hearing.',
    'Residents can share their views at a public meeting on Thursday evening at the library.',
    'Comparte con su hermano una casa en las afueras de la ciudad desde hace diez años, según la policía.',
    'Folgende Maßnahmen hat der Stadtrat am Dienstag nach einer langen Debatte beschlossen.',
    "Suivez le guide : la ville propose des visites gratuites du nouveau dépôt de bus tout l'été.",
    'Abonnenten der Zeitung erhalten den Bericht des Stadtrats ab der kommenden Woche per Post.',
    'Follow these steps shared on Twitter to report a delayed bus to the transit authority.',
    'The reporter who broke the story said the council had not contacted her before the vote.',
    'Already a member of the council, she said the new routes were overdue and the budget was there to pay for them.',
    'Subscribers to the transit pass will pay less under the new plan, the authority said on Tuesday.',
    'Got a story about the buses, the mayor joked, and everyone will want to hear it at the next council meeting.',
    'Contact tracing at the depot found no new cases among the drivers, the authority said.',
    'Never miss a chance to ride the new line, the mayor told the crowd at the depot on Tuesday.',
    'Was denken Sie über Politik, fragte der Reporter die Fahrgäste am Bahnhof.',
    'Full access to the depot is limited to drivers, the authority said on Tuesday.',
    'If you enjoyed the first season of the show, the second one is even better, critics say.',
    'Did you like the old timetable better? Most riders told the survey they did not.',
    'She said she would buy me a coffee if the bus was late again, and it was.',
    'Sign in to view your order history, then choose Returns and pick the bus pass you want to refund.',
    'Users must log in to post comments on the transit forum, the authority said on Tuesday.',
    'Pin it to the map next to the depot, then draw the new route in red.',
    'Is this useful to riders? The authority says the new app will tell.',
    'Was this the right call? Most council members think it was.',
    "Le musée a ouvert une salle réservée aux abonnés de la saison, qui peuvent y entrer sans réserver.",
    "Der Verlag will für Abonnenten künftig mehr Artikel ohne Werbung anbieten, sagte die Sprecherin.",
    "Jetzt müssen sich alle Bürger bis zum Jahresende neu anmelden, sagte der Bürgermeister am Dienstag.",
    "Most young people follow the news on TikTok rather than on television, the survey found.",
    "We will never sell our farm to the developers, the family said after the council meeting.",
    "Residents who want to keep up with the roadworks can check the council's map, which is updated daily.",
    "Being the first to know about a recall matters, the safety agency said, and it urged owners to register.",
]


@pytest.mark.parametrize("line, where", [(line, where) for lines, wheres in CALLS_TO_ACTION for where in wheres for line in lines])
def test_calls_to_action_removed(line, where):
    assert kind_of(line, where) == "call_to_action"


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_look_alikes_survive(line):
    assert survives(line)


def test_a_german_headline_starting_with_jetzt_is_no_button():
    from newsclean.cleaners.rules.call_to_action import reader_engagement
    from tests.ruletools import alone

    assert alone(reader_engagement, "Jetzt müssen sich alle Bürger anmelden") is None



# Share and like bars, "if you enjoyed this article" and "never miss" pitches in the other languages
@pytest.mark.parametrize("line", [
    "Like this:", "Gefällt mir:", "Teilen mit:", "J'aime ça :", "Me gusta esto:", "Mi piace:", "Vind ik leuk:", "Lubię to:",
    "Den Beitrag mit Freunden teilen:", "Artikel teilen/drucken:",
    "If you enjoyed reading this story, please consider a small donation.",
    "Wenn dir dieser Beitrag gefallen hat, freuen wir uns über eine Spende.",
    "Si te ha gustado este artículo, compártelo con tus amigos.",
    "Se ti è piaciuto questo articolo, condividilo.",
    "Se você gostou deste artigo, assine a nossa newsletter.",
    "Jeśli spodobał ci się ten artykuł, udostępnij go znajomym.",
    "Keine Angebote aus Ihrer Region mehr verpassen: Jetzt den Newsletter bestellen.",
    "Nichts mehr verpassen!",
    # write-to-us, donation and quiz prompts
    "Schreiben Sie uns eine Mail an redaktion@example.de", "Escríbenos a redaccion@example.com", "Napisz do nas",
    "Czekamy na Wasze maile z uwagami: redakcja@example.pl",
    "Écrivez-nous à redaction@example.fr", "Jede Spende zählt!", "Every little donation helps.",
    "Teste dein Wissen!", "Test your knowledge with our weekly quiz", "Sprawdź swoją wiedzę",
    # a contribution's pitch, a prompt to read on
    "Ihr Beitrag hilft, unsere Berichterstattung weiterhin kostenlos anzubieten.", "Your support helps keep our reporting free.",
    "Lesen Sie hier einen weiteren spannenden Beitrag …",
    # a blog's like button while it loads, its count of likes; a comment form's log-in line; a paywall; a newsletter's button
    "Like Loading...", "Gefällt mir Lade …", "J'aime Chargement…", "%d Bloggern gefällt das:", "3 bloggers like this:",
    "Du musst eingeloggt sein, um Kommentare zu schreiben!", "Pour lire la suite de cet article", "Pour accéder en illimité :",
    "Zum Newsletter anmelden",
])
def test_calls_to_action_in_other_languages(line):
    from newsclean.cleaners.rules.call_to_action import reader_engagement
    from tests.ruletools import alone

    assert alone(reader_engagement, line) is not None


# article sentences with the same words
@pytest.mark.parametrize("line", [
    "Gefällt mir nicht, sagte der Trainer nach dem Spiel über die Leistung seiner Mannschaft.",
    "Mi piace molto la nuova piazza, ha detto la sindaca ai giornalisti.",
    "Den Artikel teilen sich zwei Autorinnen aus der Redaktion in Hamburg.",
    "Wenn dem Leser der Artikel nicht gefallen hat, kann er sich beim Presserat beschweren.",
    "Keine Sekunde wollten die Fans verpassen, als das Team ins Stadion einlief.",
    "Teste dich regelmäßig auf das Virus, rät die Ärztin, vor allem vor Besuchen im Pflegeheim.",
    "Jede Spende wird von der Stiftung geprüft, bevor sie weitergeleitet wird.",
    "Der Bürgermeister schreibt uns, er habe von dem Plan nichts gewusst.",
    "Ihr Beitrag hilft den Kindern, sagte die Sprecherin der Stiftung bei der Übergabe.",
    "Lesen Sie weiter: Der Ausschuss hat die Vorlage am Dienstag abgelehnt.",
    "Czekamy na wyniki śledztwa, powiedział rzecznik prokuratury.",
    "Like loading a truck, the work takes all morning.",
    "Pour lire la suite des événements, il faut remonter à l'hiver 1990.",
    "Zum Newsletter anmelden konnten sich die Mitglieder schon im März, sagte die Sprecherin.",
])
def test_sentences_with_the_same_words_survive(line):
    from newsclean.cleaners.rules.call_to_action import reader_engagement
    from tests.ruletools import alone

    assert alone(reader_engagement, line) is None


def test_contacting_a_staff_writer_is_a_call_to_action():
    line = "Contact staff writer Jane Roe at 555-0100 or roe@example.org with tips about the schools."
    assert kind_of(line, "after") == "call_to_action"
