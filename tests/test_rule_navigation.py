import pytest

from tests.ruletools import BODY, alone, article, kind_of, removed_kinds, survives


@pytest.mark.parametrize("line", ["Watch LIVE", "Watch now", "Skip to content", "Please verify", "Most recent",
                                  "All Articles", "Home > World > Europe", "News | Sport | Weather | Travel", "Sign in", "Load more"])
@pytest.mark.parametrize("where", ["before", "middle", "after"])
def test_navigation_removed_anywhere(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", ["Police squeal on each other", "The truth will come out in time", "What happens next",
                                  "A long road to recovery"])
def test_subheadings_between_paragraphs_survive(line):
    assert survives(line)


def test_short_fragments_after_the_body_are_navigation():
    assert kind_of("Editors' choice", "after") == "navigation"


# readers' comments on the article's own topic, in prose: the line model alone keeps them as body
COMMENTS = [
    "Anna Berg",
    "The council has promised new bus routes for years, and the network downtown still has the same gaps it had when the plan was first debated.",
    "Tom Lee",
    "More buses on the downtown network would help the neighbourhoods that lost reliable service, but the transit authority has to approve the budget first.",
    "Mia Chen",
    "I hope the regional transit authority approves the routes next month, because the council vote on Tuesday means little without the money for buses.",
]


@pytest.mark.parametrize("header", ["57 Comments", "124 Reader Comments", "10 comments:", "Comments (12)", "Comments 115",
                                    '3 thoughts on "Council backs bigger bus network"', "Leave a Reply Cancel reply",
                                    "12 Kommentare", "Discussion about this post", "Join the discussion..."])
def test_comments_header_closes_the_article(header):
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings
    from tests.ruletools import article

    doc = clean_text(article(after=[header, *COMMENTS]), Settings())
    kinds = {s.text: (s.kind, s.by) for s in doc.removed}
    assert kinds[header] == ("comments", "comments_header")
    # the readers' prose under the header is not the article's, however sentence-like
    assert not any(c in doc.text for c in COMMENTS)
    assert doc.text.endswith(BODY[2])
    # and is removed as the thread it is (the posts and the commenters' names between them) under
    # a count or a "Comments" header; the reply form's title opens no thread
    in_thread = all(kinds[c] == ("comments", "comment_thread") for c in COMMENTS)
    assert in_thread is not header.startswith("Leave")


def test_a_comment_thread_ends_at_the_reply_form():
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    below_form = ["Notify me of follow-up comments by email.", "I'm Jane, the editor of this site and a writer on transport."]
    doc = clean_text(article(after=["3 Comments", *COMMENTS, "Leave a Reply", *below_form]), Settings())
    kinds = {s.text: (s.kind, s.by) for s in doc.removed}
    assert all(kinds[c] == ("comments", "comment_thread") for c in COMMENTS)
    assert kinds["Leave a Reply"] == ("comments", "comments_header")
    assert all(kinds[t][1] != "comment_thread" for t in below_form)


def test_the_page_footer_below_a_comment_thread_keeps_its_own_kind():
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    footer = ["About us", "Contact", "Privacy policy"]
    doc = clean_text(article(after=["57 Comments", *COMMENTS, *footer]), Settings())
    kinds = {s.text: s.kind for s in doc.removed}
    assert all(kinds[c] == "comments" for c in COMMENTS)
    assert all(kinds[f] == "navigation" for f in footer)


def test_no_comment_thread_without_its_header():
    """Prose under the article with no thread header is not called a thread: it keeps the kinds
    (or the place in the body) it had."""
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    doc = clean_text(article(after=["About us", "Contact"]), Settings())
    assert all(s.kind != "comments" for s in doc.removed)


@pytest.mark.parametrize("line", ["Comments from the minister were not expected", "57 comments on the plan arrived by Friday.",
                                  "Comments 115 and 116 of the draft were struck", "Responses 2 to 5 came late.",
                                  "The comments were harsh.", "Leave a comment below and tell us what you think of the plan.",
                                  # a paper's section heading, a social call, a sentence about a debate
                                  "Discussion", "DISCUSSION", "Join the conversation on Twitter",
                                  "Discussion about this story went on for weeks."])
def test_comments_header_lookalikes_do_not_close_the_article(line):
    from newsclean.cleaners.rules.navigation import _COMMENTS_HEADER

    assert not _COMMENTS_HEADER.search(line)


# the second half of an analysis, under its own section's name
ANALYSIS = [
    "The vote shows how far the council has moved since the last election, when the bus network was barely mentioned in any of the campaigns.",
    "Whether the routes run next year depends on the transit authority's budget, which the regional assembly is due to approve in the spring.",
]


@pytest.mark.parametrize("label", ["Comment", "Kommentar", "Komentarz:"])
def test_a_bare_comment_label_is_removed_but_closes_nothing(label):
    # the name of an analysis's own section over its second half, or a "Comment" button: the
    # label goes, the article below it stays
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.rules.navigation import is_comments_header
    from newsclean.cleaners.settings import Settings

    doc = clean_text(article(after=[label, *ANALYSIS]), Settings())
    assert {s.text: (s.kind, s.by) for s in doc.removed}.get(label) == ("comments", "comment_label")
    assert all(b in doc.text for b in BODY + ANALYSIS)
    assert not is_comments_header(label) and is_comments_header(label.rstrip(":") + " (3)")


def test_a_comment_count_above_the_body_does_not_cut_it():
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings
    from tests.ruletools import article

    doc = clean_text(article(before=["By Jane Doe | 12 Comments", "57 Comments"]), Settings())
    assert all(b in doc.text for b in BODY)


# Furniture that interrupts the body: ad breaks, loaders, gallery counters, embed placeholders.
@pytest.mark.parametrize("line", ["Story continues below", "Advertisement - Continue Reading Below", "Loading...",
                                  "Enlarge this image", "Image 1 of 5", "Bild 2 von 9", "3 / 12",
                                  "View this post on Instagram", "A post shared by Jane Doe (@janedoe)",
                                  "This content is imported from Twitter. You may be able to find the same content in another format, or you may be able to find more information, at their web site.",
                                  "Your browser does not support the video tag.",
                                  # a blog archive widget's entries, form fields, unfilled templates
                                  "March (31)", "► Dezember (1)", "▼ 2025 (59)", "Oktober 2019 (4)",
                                  "Email (required)", "Type your email…",
                                  "This field is for validation purposes and should be left unchanged.",
                                  "{{ quickLink.title }}", "Lorem ipsum dolor sit amet, consectetur adipisicing elit sed.",
                                  "Scroll back to the top of the page", "Back to top ↑"])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_furniture_inside_the_body_is_navigation(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", ["The plan was approved 3 of 12 times.", "Reading between the lines",
                                  "Image is everything, the mayor said, and the buses need a new one.",
                                  "1 of 3 residents said they ride the bus every week, according to the survey.",
                                  "March 31", "Decision (2) was appealed by the council on Tuesday, the court said.",
                                  "Back to top of the league after a 3-0 win, the club celebrated."])
def test_furniture_look_alikes_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["Scroll to continue with content", "Recommended Stories", "Media playback is unsupported on your device"])
def test_more_furniture_is_navigation(line):
    assert kind_of(line, "middle") == "navigation"


@pytest.mark.parametrize("line", [".......X...X..", "Web Apps", "What to Buy?", "Paid newsletters and subscriptions"])
def test_puzzle_rows_and_list_headings_are_not_menus(line):
    from newsclean.cleaners.rules.navigation import ui_words
    assert alone(ui_words, line) is None


@pytest.mark.parametrize("label", ["Anzeige", "Werbung", "Publicité", "Publicidad", "Pubblicità", "Reklama", "Advertentie"])
def test_advert_labels_in_other_languages_are_navigation(label):
    assert kind_of(label, "middle") == "navigation"


# Chrome in the other languages, with their function words ("Zur Startseite"), and counts beside
# UI words ("View comments (12)"); bot checks and reading-time labels.
@pytest.mark.parametrize("line", ["Zur Startseite", "Weiterlesen", "Teilen", "Condividi", "Impressum & Datenschutz",
                                  "View comments (12)", "Share via Email", "Pin it", "Swipe for more photos",
                                  "Please verify you're not a robot", "Please enable JavaScript to view this page.",
                                  "Reading time: 4 minutes", "5 min read", "Lesezeit: ca. 3 Minuten", "4 minute read time",
                                  "Embedded content from Twitter", "This video is not available."])
@pytest.mark.parametrize("where", ["before", "middle"])
def test_chrome_in_other_languages_bot_checks_and_reading_time(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", [
    "Die Story",  # a German heading: an English UI word beside German function words
    "5. Sports App",  # a numbered list item: only a bracketed count is the widget's
    "Packing tips (3)",  # its words are not all UI words
    "Top 10 apps",
    "The video is not available in every country, the broadcaster said in a statement on Tuesday.",
    "Reading takes time",
    "4 minutes of reading time a day",
])
def test_chrome_look_alikes_are_not_menus(line):
    from newsclean.cleaners.rules.navigation import placeholder, ui_words
    assert alone(ui_words, line) is None and alone(placeholder, line) is None


@pytest.mark.parametrize("line", ["Do Not Sell My Personal Information", "Text size", "A A A", "Save for later",
                                  "Add to favourites", "Privacy Policy | Terms of Use | Accessibility", "Site Map / Contact Us",
                                  "Mehr lesen", "Lire la suite", "Nach oben", "Featured Video", "Go to comments", "Dark mode",
                                  "Weitere Informationen", "więcej informacji:", "More information", "Aktuelle Ausgabe"])
@pytest.mark.parametrize("where", ["before", "middle"])
def test_toolbar_and_footer_links_are_navigation(line, where):
    assert kind_of(line, where) == "navigation"


@pytest.mark.parametrize("line", [
    "Terms of Use",  # one legal link alone may head an article's section
    "Accessibility",
    "Save the date",
    "Text size matters more than colour on a bus stop sign, the designers said.",
    "Paid newsletters and subscriptions",
    "Weitere Informationen zum Verfahren gab die Behörde nicht bekannt.",
    "More information is expected on Monday, the ministry said.",
])
def test_footer_link_look_alikes_are_not_navigation(line):
    from newsclean.cleaners.rules.navigation import footer_link, ui_words
    assert alone(footer_link, line) is None and alone(ui_words, line) is None


@pytest.mark.parametrize("line", ["3 hours ago", "Posted 2 days ago", "vor 14 Stunden", "il y a 3 jours", "Hace 13 horas",
                                  "Externer Inhalt", "Listen to this article · 5:12 min Learn more", "Listen to this story"])
@pytest.mark.parametrize("where", ["before", "middle"])
def test_relative_time_stamps_and_external_content_placeholders(line, where):
    assert kind_of(line, where) == "navigation"


def test_a_story_to_listen_to_is_no_audio_player_label():
    assert survives("Listen to this story of a bus driver who kept her route running through three winters of cuts.")


def test_a_relative_time_stamp_is_no_publication_date():
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings
    from tests.ruletools import article
    assert clean_text(article(before=["3 hours ago"]), Settings()).published is None


@pytest.mark.parametrize("line", ["Three hours ago, the council voted on the new routes for the northern suburbs.",
                                  "Vor 14 Stunden hat der Rat die neuen Buslinien beschlossen, teilte die Stadt mit."])
def test_relative_time_look_alikes_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["Jump to Recipe", "Print Recipe", "Rezept drucken", "Sort by: Newest", "Explore further",
                                  "Print Recipe Pin Recipe", "Rezept drucken Bei Pinterest speichern"])
def test_recipe_toolbar_and_sorting_links(line):
    assert kind_of(line, "middle") == "navigation"


def test_a_german_comment_count_closes_the_article():
    from newsclean.cleaners.rules.navigation import comments_header
    assert alone(comments_header, "11 Antworten zu") is not None


@pytest.mark.parametrize("line", ["Buy now", "Book Now", "Check Price on Amazon", "Track price", "Read full review", "Learn more.",
                                  "Loading prices for your region…", "Learn more >>", "Read the full review →",
                                  # a business site's buttons
                                  "Add to cart", "View your cart", "Get a Free Quote", "Request an estimate",
                                  "Schedule a Consultation", "Book a demo", "Start your free trial", "Try it for free",
                                  # with where they lead: a shop, a phone number, a screen reader's "Links to"
                                  "Enrol Now", "Order today!", "Request a demo (800) 555-0199", "Start your 14-day free trial",
                                  "Claim your free consultation", "View pricing", "See Plans and Pricing", "Download the whitepaper",
                                  "Grab your free checklist", "Book your tickets", "Visit the store", "Check Price - Walmart",
                                  "Buy the Kettle Pro on Amazon", "Try Notewise for free", "Shop Alder & Pine Today",
                                  "See Deals Links to Example Travel", "Get a Quote (212) 555-0147",
                                  # a price at a store, alone or side by side (written for the test, no dev page's line)
                                  "$149.99 at Target", "$1,249.00 from Crate & Barrel", "£89 at John Lewis",
                                  "$60 at REI$64 at Backcountry", "$35 on Amazon$39 on Etsy", "79,99 € bei MediaMarkt",
                                  "Get Price", "See today's price",
                                  # a table of contents' label and links
                                  "Table of Contents", "On this page:", "In This Article", "Jump to Details", "Jump to ↓",
                                  "Jump to Recipe Print Recipe"])
def test_shop_buttons_and_loaders_are_navigation(line):
    assert kind_of(line, "middle") == "navigation"


# The article's own imperatives: a how-to's steps and headings, a sentence offering a deadline
@pytest.mark.parametrize("line", ["Get quotes from at least three movers", "Download the app and pair it with the camera",
                                  "Book the venue at least a year ahead", "Check the price history before you buy",
                                  "Start with the basics", "Order matters when you layer skincare",
                                  "Try a variety of drinks high in potassium.",
                                  "Apply now to get the discount before the offer ends next week.",
                                  "Compare the two plans side by side before signing up for either one.",
                                  # prices in the article's own words: a sentence, an amount, a price at no store
                                  "$150 at Amazon is a steal for a drill this good.", "Prices start at $150 for the base model.",
                                  "$20 on weekdays and $30 on weekends", "$1.5 billion from investors", "$5 at the door",
                                  "Get the price right before you list the house.",
                                  # a sentence that starts like a table of contents' link
                                  "Jump to the next step only when the glue has dried.", "In this article, we look at three options."])
def test_an_articles_own_imperatives_are_no_buttons(line):
    from newsclean.cleaners.rules.navigation import footer_link
    assert alone(footer_link, line) is None


@pytest.mark.parametrize("line", ["Buy now, pay later schemes are growing fast, the regulator said on Tuesday.",
                                  "Learn more about the new routes at the depot.",
                                  "Get a quote from three installers before you sign anything.",
                                  "Book a demo only after you have listed what the software must do.",
                                  "Try it free for a month, then decide whether the paid plan is worth it.",
                                  "Shop now, pay later and learn more about the terms, the bank told its customers."])
def test_shop_button_look_alikes_survive(line):
    assert survives(line)


@pytest.mark.parametrize("line", ["Buch bestellen", "Jetzt kaufen", "Dowiedz się więcej", "En savoir plus"])
def test_shop_and_learn_more_buttons_in_other_languages(line):
    assert kind_of(line, "middle") == "navigation"


@pytest.mark.parametrize("where", ["middle", "after"])
def test_a_run_of_category_counts_is_navigation(where):
    widget = ["Fotografie (615)", "Bookkeeping Best Practices (38)", "Travel (7)"]
    kinds = removed_kinds(article(**{where: widget}))
    assert all(kinds.get(line) == "navigation" for line in widget)


def test_one_heading_with_a_count_is_no_widget():
    # a heading that counts its items, alone between paragraphs ("Packing tips (3)" above, as ui_words
    # and placeholder must not take it either)
    assert survives("Packing tips (3)")
    assert survives("Results (2019)")


@pytest.mark.parametrize("line", ["NEWYou can now listen to Courier articles!", "New: You can now listen to our stories."])
def test_an_audio_feature_promo_is_page_furniture(line):
    assert kind_of(line, "middle") == "navigation"


# The reply form's title with its "Cancel reply" link, a thread's count of thoughts, comment-form
# fields, a content blocker's placeholder and "close"/"show" buttons in the other languages
@pytest.mark.parametrize("line", [
    "Schreibe einen Kommentar Antworten abbrechen", "Deine Meinung zählt… Antwort abbrechen",
    "Laisser un commentaire Annuler la réponse", "Deja una respuesta Cancelar respuesta", "Join the discussion Cancel reply",
    "3 Gedanken zu „Neue Buslinien für die Stadt“", "12 thoughts on “New bus routes”",
    "Pingback von Ein anderes Blog - Lesezeichen | 11.09.2011 23:31", "Pingback: New bus routes for the city", "Trackback from Example Blog",
    # the thread closed, where the form would be
    "Comments are closed.", "Comments are now closed for this article.",
    "Comments are closed for this story, but you can still write to our editors about it.",
    "Die Kommentarfunktion ist für diesen Artikel deaktiviert.", "Les commentaires sont fermés.",
])
def test_comment_form_titles_and_thread_counts_in_other_languages(line):
    from newsclean.cleaners.rules.navigation import comments_header

    assert alone(comments_header, line) is not None


@pytest.mark.parametrize("line", [
    "Gedanken", "10 Antworten zu den wichtigsten Fragen", "Wir haben die Antwort abbrechen müssen, weil der Strom ausfiel.",
    "12 Gedanken zu einem schwierigen Thema.",
    "Pingbacks tell a blogger that another site links to a post.",
    "Comments are closed on most news sites after a week, the study found.",
])
def test_headings_and_sentences_like_comment_headers_survive(line):
    from newsclean.cleaners.rules.navigation import comments_header

    assert alone(comments_header, line) is None


@pytest.mark.parametrize("line", [
    "E-Mail (wird benötigt und nicht veröffentlicht)", "Name (erforderlich)", "Mail (will not be published) (required)",
    "Nom (obligatoire)", "Correo electrónico (no será publicado)", "Imię (wymagane)",
    "Klicken Sie auf den unteren Button, um den Inhalt von maps.example.com zu laden.",
    "Click the button below to load the content from example.com.",
    "Video verfügbar bis 28.02.2021", "Video available until 3 March 2026",
])
def test_form_fields_and_embed_placeholders_in_other_languages(line):
    from newsclean.cleaners.rules.navigation import placeholder

    assert alone(placeholder, line) is not None


@pytest.mark.parametrize("line", [
    "Name (erforderlich) und Adresse gab die Polizei nicht bekannt.", "Die E-Mail (wird nicht veröffentlicht) liegt der Redaktion vor.",
    "Klicken Sie auf den Button, sagte der Techniker, dann startet das Programm.",
    "Das Video ist in der Mediathek verfügbar bis zum Ende des Jahres, sagte der Sender.",
])
def test_sentences_like_form_fields_survive(line):
    from newsclean.cleaners.rules.navigation import placeholder

    assert alone(placeholder, line) is None


@pytest.mark.parametrize("line", ["Menü schließen", "Bild anzeigen Bild schließen", "Zum Shop", "Fermer", "Cerrar", "Zamknij"])
def test_close_and_show_buttons_in_other_languages(line):
    from newsclean.cleaners.rules.navigation import ui_words

    assert alone(ui_words, line) is not None


@pytest.mark.parametrize("line", ["Das Bild der Woche", "Die Stadt schließt", "Anzeigen gegen Unbekannt", "La mostra"])
def test_headings_with_the_same_words_are_no_buttons(line):
    from newsclean.cleaners.rules.navigation import ui_words

    assert alone(ui_words, line) is None


# An audio player's label in the other languages ("Listen to this article")
@pytest.mark.parametrize("line", ["Escucha esta nota aquí", "Écouter cet article", "Artikel anhören", "Ascolta l'articolo",
                                  "Ouça esta notícia"])
def test_audio_player_labels_in_other_languages(line):
    assert kind_of(line, "middle") == "navigation"


@pytest.mark.parametrize("line", ["Escucha esta nota, dijo la ministra, porque explica lo que el gobierno hará con el presupuesto.",
                                  "Artikel anhören konnten die Abgeordneten am Dienstag erstmals in der neuen Mediathek des Landtags."])
def test_sentences_about_listening_survive(line):
    assert survives(line)


def test_a_closed_thread_ends_the_article_and_opens_no_thread():
    """"Comments are closed." stands where the reply form would: the article ends above it, as
    above the form's title, and it is removed as `comments`; the page's lines below it keep
    their own kinds, as below a reply form."""
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings

    footer = "Copyright 2024 The Daily Courier. All rights reserved."
    text = "\n\n".join(["Council backs bigger bus network", *BODY, "Comments are closed.", footer])
    doc = clean_text(text, Settings())
    assert doc.text.split("\n\n") == BODY
    kinds = {s.text: (s.kind, s.by) for s in doc.removed}
    assert kinds["Comments are closed."] == ("comments", "comments_header")
    assert kinds[footer][0] != "comments"
