"""Navigation: menu items, section labels, "Watch LIVE", "Skip to content", breadcrumbs."""
from __future__ import annotations

import re

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import Doc, Line, Proposal, in_context, starts_with, when, whole_line
from newsclean.cleaners.rules.dateline import FOREIGN_MONTH, MONTH

# The same chrome in the other languages the cue rules read (German, French, Spanish, Italian,
# Portuguese, Dutch, Polish).
UI_WORDS_ELSEWHERE = frozenset(
    """weiterlesen teilen startseite drucken suche anmelden abmelden mehr kontakt impressum datenschutz menü
    partager imprimer rechercher accueil connexion compartir imprimir buscar inicio condividi stampa cerca
    accedi partilhar pesquisar delen zoeken udostępnij szukaj zaloguj lesen oben kommentieren lire suite commenter
    leggere continua torna commenta comentar leer lees meer czytaj dalej
    bild bilder anzeigen schließen shop imagen immagine imagem afbeelding zdjęcie fermer afficher cerrar chiudi fechar
    sluiten zamknij""".split()
)
# The vocabulary of site chrome: words menus, buttons and prompts are made of.
UI_WORDS = frozenset(
    """home menu search watch live video videos verify please sign log login logout register subscribe
    subscribed subscription subscriptions newsletter newsletters share tweet email print comments comment
    recent popular trending latest article articles stories story news more next previous prev back top
    skip content close open follow like contact about privacy policy terms cookies cookie advertisement
    advertise ad ads sponsored accept reject read full continue load view page pages most related topics
    topic sections section account profile settings help faq sitemap rss feed podcasts podcast photos
    gallery galleries listen play pause now today breaking opinion world local sports weather business
    politics entertainment lifestyle tech technology health science travel shop deals edition menu main
    navigation toggle expand collapse show hide sidebar footer header site app apps download install
    notifications alerts saved bookmarks bookmark my sign-in log-in signup sign-up e-mail whatsapp facebook
    twitter instagram linkedin youtube pinterest reddit tiktok x copy link links permalink reprints
    feedback careers jobs store subscribe now free trial upgrade premium donate support us up
    continues continued reading below loading enlarge image images caption captions slideshow fullscreen
    replay scroll photo partner promoted recommended pin via swipe tap click go favourites favorites gift explore
    featured obituaries classifieds today's dark mode font
    anzeige werbung publicité publicite publicidad pubblicità reklama advertentie publicidade""".split()
) | UI_WORDS_ELSEWHERE
# Function words of those languages ("Zur Startseite", "Nach oben"): allowed only beside one of their
# UI words, so a German heading "Die Story" stays.
_FUNCTION_WORDS_ELSEWHERE = frozenset(
    """zur zum zu nach der die das den dem des und le la les de du des et au en el los las y del il lo gli
    di su alla e het een van o do da na i w z""".split()
) - shape.STOP_WORDS


# A word limit over the lines frame (newsclean.cleaners.engine.rule_conditions) for the shape rules' conditions:
# one regex search (a count of matches costs several times as much, on every line).
def _more_words_than(k: int):
    """True only where shape.words finds more than `k` words: k + 1 ASCII letters or digits, each
    with a space between it and the next, lie in k + 1 distinct words (a word holds no space)."""
    import polars as pl

    return pl.col("text").str.contains(f"(?s)[A-Za-z0-9](?:.* .*[A-Za-z0-9]){{{k}}}")


_BRACKETED_COUNT = re.compile(r"\s\(\d{1,6}\)$")
_BREADCRUMB = re.compile(r"\S\s*(?:>|»|›|\||/|•|·)\s*\S")


def _may_be_ui_words():
    """ui_words' tests: at most 200 characters; no final full stop unless a trailing ellipsis alone;
    at most 5 words; a UI word in Line.lower (a word whose lower case is a UI word has no letter
    Line.lower folds, so Line.lower holds it)."""
    import polars as pl

    text = pl.col("text")
    return ((pl.col("n_chars") <= 200)
            & (~text.str.ends_with(".") | (text.str.ends_with("...") & ~text.str.strip_chars_end(".").str.contains(".", literal=True)))
            & ~_more_words_than(5)
            & pl.col("lower").str.contains_any(sorted(UI_WORDS)))


@when(_may_be_ui_words)
def ui_words(line: Line, doc: Doc) -> Proposal | None:
    """A short line made only of site-chrome words, e.g. "Watch LIVE", "Most recent"."""
    text = line.text
    if len(text) > 200 or (text.endswith(".") and not (text.endswith("...") and "." not in text.rstrip("."))):
        return None  # five menu words (13 letters at most) with separators fit in far less; a
        # full stop ends a sentence, a trailing ellipsis a prompt ("Loading...")
    if not 1 <= line.n_words <= 5:  # (a count the first look may know without the words)
        return None
    lowered = [w.lower() for w in line.words]
    if _BRACKETED_COUNT.search(text):  # the widget's count, not prose: "View comments (12)"
        lowered.pop()
    if all(w in UI_WORDS or w in shape.STOP_WORDS or w in _FUNCTION_WORDS_ELSEWHERE for w in lowered) \
            and any(w in UI_WORDS for w in lowered) \
            and (not any(w in _FUNCTION_WORDS_ELSEWHERE for w in lowered) or any(w in UI_WORDS_ELSEWHERE for w in lowered)):
        return whole_line("navigation", "ui_words")
    return None


# Footer and toolbar links whose words are too common to be UI words alone ("use", "size", "sell"):
# "Do Not Sell My Personal Information", "Text size", "A A A", "Save for later". The legal links an
# article may have as a heading ("Terms of Use", "Accessibility") count only two or more to a line.
_TOOLBAR_LINK = (r"do\ not\ sell\ (?:or\ share\ )?my\ (?:personal\ )?(?:info(?:rmation)?|data)|(?:your\ )?privacy\ choices"
                 r"|cookie\ (?:settings|preferences)|ad\ ?choices|(?:text|font)\ size|a\ a\ a|(?:a[+-]\ ?){2,3}"
                 r"|save\ (?:for\ later|to\ (?:my\ )?(?:list|reading\ list))|add\ to\ (?:favou?rites|(?:my\ |reading\ )?list)"
                 r"|paid\ (?:content|post|partnership)|sort(?:ed)?\ by(?::?\ \w+)?"
                 r"|(?:print|jump\ to|pin|save|rate\ this)\ (?:the\ )?recipe|rezept\ (?:drucken|merken)|imprimer\ la\ recette"
                 # a page's table of contents: its label and its links ("Jump to Review", "Jump to ↓", "On this page")
                 r"|jump\ to(?:\ [\w'’-]+){0,2}|(?:table\ of\ contents|on\ this\ page|in\ this\ (?:article|post|guide))\s*:?"
                 r"|(?:save|pin)\ (?:it\ )?(?:to|on)\ pinterest|(?:bei|auf)\ pinterest\ (?:speichern|merken)"
                 # a shop's or booking site's buttons ("Shop Gucci Now", "Check Price - Walmart", "Get the
                 # Catan Board Game on Amazon"), and a business site's ("Apply Now", "Request a Quote",
                 # "Start your 7-day free trial", "Download the Report")
                 r"|(?:(?:apply|buy|shop|book|order|reserve|subscribe|register|enrol{1,2}|donate|join|sign\ up|start|try|get\ started"
                 r"|call|download|install|claim|grab|unlock|upgrade)\ (?:it\ )?(?:now|today)"
                 r"|(?:shop|try|buy|order|book|get)\ (?:[\w'’&.-]+\ ){1,3}(?:now|today)"
                 r"|(?:check|see|view|compare|get)\ (?:the\ )?(?:latest\ |current\ |best\ |today['’]s\ )?prices?(?:\s*[-–|:]\s*[\w.'’&-]+(?:\ [\w.'’&-]+){0,2})?"
                 # an offer: a price at a store ("$150 at ADIDAS", "$878.00 from Home Depot", "79,99 € bei
                 # MediaMarkt"), side by side on one line as a bar ("$150 at Amazon$150 at Zappos")
                 r"|(?:[$£€¥]\ ?\d[\d,]*(?:\.\d{1,2})?|\d[\d.,]*\ ?(?:[$£€¥]|usd|eur|gbp|chf))\ (?:at|from|on|bei|chez|sur|en|su|da|op)"
                 r"\ (?-i:[A-Z0-9])[\w'’&.+-]*(?:\ (?:&\ )?(?-i:[A-Z0-9])[\w'’&.+-]*){0,3}"
                 r"|(?:see|view|compare|shop)\ (?:all\ |our\ |the\ |latest\ )?(?:deals?|packages|plans\ (?:and|&)\ pricing|pricing|offers)"
                 r"|(?:get|buy|shop|order|see|view|check)(?:\ [\w'’&.()-]+){0,8}\ (?:on|at|from|via)\ (?:amazon|walmart|target|best\ buy|ebay"
                 r"|etsy|home\ depot|lowe'?s|wayfair|costco|rei|sephora|ulta|zappos|nordstrom|macy'?s)(?:\.com)?"
                 r"|track\ price|get\ (?:the\ )?(?:deal|recipe)|read\ (?:the\ )?full\ review"
                 r"|watch\ (?:the\ )?(?:video\ )?review|learn\ more|more\ details|get\ started"
                 r"|(?:add\ to|view|go\ to)\ (?:your\ )?(?:cart|basket|bag|wish\ ?list)|(?:go\ to|visit)\ (?:the\ )?(?:website|site|store|shop)"
                 r"|(?:get|request|book|schedule|claim|see)\ (?:an?\ |my\ |your\ )?(?:free\ |instant\ )?(?:quote|estimate|demo|call|consultation|appointment)s?"
                 r"(?:\ (?:now|today|here))?"
                 r"|(?:start|begin|get|try|claim)\ (?:a\ |my\ |your\ |the\ )?(?:(?:free|\d+-day)\ (?:\w+\ ){0,2})?trial"
                 r"(?:\ (?:of|with|for)\ [\w'’&.-]+(?:\ [\w'’&.-]+){0,3})?"
                 r"|try\ (?:[\w'’&.-]+\ ){0,3}(?:for\ )?free|(?:get|buy|book)\ (?:your\ )?tickets"
                 r"|(?:access|download|get|grab|claim)\ (?:the|our|your|my)\ (?:free\ )?(?:e-?book|checklist|template|report"
                 r"|white\ ?paper|toolkit|cheat\ sheet|freebie)"
                 r"|(?:jetzt\ |hier\ |buch\ |online\ )?(?:bestellen|kaufen)|dowiedz\ się\ więcej|en\ savoir\ plus|más\ información"
                 # a link to more on the subject, or to the magazine's issue ("Weitere Informationen", "Aktuelle Ausgabe")
                 r"|(?:(?:more|further)\ information|(?:weitere|mehr)\ informationen|więcej\ informacji|meer\ informatie"
                 r"|plus\ d['’]informations?|maggiori\ informazioni|mais\ informações)\s*:?"
                 r"|(?:current|latest)\ issue|(?:aktuelle|neueste)\ ausgabe)"
                 # where it leads: "... at AJ Madison", a phone number, a screen reader's "Links to <site>"
                 r"(?:\ (?:on|at)\ [\w.]+(?:\ [\w.]+)?|\s*\(?\+?\d[\d\s().-]{6,}\d|\ links?\ to\ \S+(?:\ \S+){0,3})?[.!]*")
_LEGAL_LINK = (r"terms\ (?:of|and)\ (?:use|service|sale|conditions)|privacy(?:\ (?:policy|notice|center|centre))?"
               r"|cookie\ policy|site\ ?map|accessibility(?:\ statement)?|imprint|legal(?:\ notice)?|contact(?:\ us)?")
_SEPARATORS = r"[\s|•·/,]*"
_ARROW_END = r"(?:[>»›→↓]+\s*)?$"  # a trailing arrow: "Learn more >>", "Jump to ↓"
_TOOLBAR = re.compile(rf"^(?:{_TOOLBAR_LINK}){_SEPARATORS}{_ARROW_END}", re.IGNORECASE | re.VERBOSE)
# A bar of such links on one line ("Print Recipe Pin Recipe"), read one link at a time: one regular
# expression over the repeated links would backtrack through their overlapping forms ("Shop now").
_TOOLBAR_ITEM = re.compile(rf"(?:{_TOOLBAR_LINK}){_SEPARATORS}", re.IGNORECASE | re.VERBOSE)
_TOOLBAR_START = re.compile(rf"^(?:{_TOOLBAR_LINK})", re.IGNORECASE | re.VERBOSE)  # footer_link's start test: one link
_TOOLBAR_END = re.compile(_ARROW_END)
_LEGAL_LINKS = re.compile(rf"^(?:{_LEGAL_LINK})(?:{_SEPARATORS}(?:{_LEGAL_LINK}))+{_SEPARATORS}$", re.IGNORECASE | re.VERBOSE)


@starts_with(_TOOLBAR_START, _LEGAL_LINKS)
def footer_link(line: Line, doc: Doc) -> Proposal | None:
    if len(line.text) <= 160 and (_TOOLBAR.search(line.text) or _LEGAL_LINKS.search(line.text) or _is_toolbar_bar(line.text)):
        return whole_line("navigation", "footer_link")
    return None


def _is_toolbar_bar(text: str) -> bool:
    """Two or more _TOOLBAR links one after another, and nothing else but a trailing arrow."""
    pos = links = 0
    while pos < len(text) and (m := _TOOLBAR_ITEM.match(text, pos)) is not None and m.end() > pos:
        pos, links = m.end(), links + 1
    return links >= 2 and _TOOLBAR_END.match(text, pos) is not None


def _may_be_breadcrumb():
    """breadcrumb's shortcut: two or more of its separators ">»›|•·"."""
    import polars as pl

    return pl.col("text").str.contains("(?s)[>»›|•·].*[>»›|•·]")


@when(_may_be_breadcrumb)
def breadcrumb(line: Line, doc: Doc) -> Proposal | None:
    """Short items joined by menu separators: "Home > World > Europe", "News | Sport | Weather"."""
    if line.ends_sentence or sum(map(line.text.count, ">»›|•·")) < 2:
        return None  # three parts need two separators (a shortcut; same result)
    if line.n_words > 12:
        return None
    parts = [p for p in re.split(r"\s*(?:>|»|›|\||•|·)\s*", line.text) if p]
    if len(parts) >= 3 and all(len(p.split()) <= 3 for p in parts):
        return whole_line("navigation", "breadcrumb")
    return None


def _may_be_short_fragment():
    """short_fragment's tests: at most 4 words, no sentence end (of its marks, the one a line
    ends in most: a full stop); exactly its tests on an ASCII text."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import ends_sentence, on_ascii

    return (~pl.col("text").str.ends_with(".") & ~_more_words_than(4)
            & on_ascii((pl.col("n_words") <= 4) & ~ends_sentence()))


@when(_may_be_short_fragment, proposes=whole_line("navigation", "short_fragment", strong=False))
def short_fragment(line: Line, doc: Doc) -> Proposal | None:
    """Weak: a few words with no sentence punctuation. Outside the body, that is chrome."""
    if line.n_words <= 4 and not line.ends_sentence:
        return whole_line("navigation", "short_fragment", strong=False)
    return None


# The header of a reader-comment thread: a count of comments ("57 Comments", "124 Reader Comments",
# "3 thoughts on "Title"", "10 comments:"), a bare "Comments (12)" or "Comments 115", or the reply form's title
# ("Leave a Reply"). Below the article it closes the article (newsclean.cleaners.decide): what follows is the
# readers' text, however prose-like, removed as `comments` down to the thread's last post.
_COMMENT = r"(?:comments?|responses?|replies|thoughts|reactions|kommentare?|antworten|commentaires?|réponses|comentarios?|respuestas|commenti|risposte|reacties|komentarze?)"
# A thread's count of "thoughts" on the post, as blog themes write it ("3 thoughts on …", "12 Gedanken zu
# „…“"): only with its count, since the word alone is a heading's too.
_THOUGHTS = r"(?:thoughts|gedanken|réflexions|pensamientos|pensieri|pensamentos|gedachten|przemyśle[nń]\w*)"
# The reply form's "Cancel reply" link after its title ("Leave a Reply Cancel reply", "Schreibe einen
# Kommentar Antworten abbrechen"), in the languages of the cue rules: a form's title whatever it says.
_CANCEL_REPLY = (r"(?:cancel\s+reply|antwort(?:en)?\s+abbrechen|annuler\s+(?:la\s+)?réponse|cancelar\s+(?:la\s+)?respuesta"
                 r"|annulla\s+(?:la\s+)?risposta|cancelar\s+resposta|reactie\s+annuleren|anuluj\s+(?:pisanie\s+)?odpowied[zź]i?)")
# The thread closed to new comments, as blog engines print it where the form would be ("Comments
# are closed.", "Comments are closed for this post, but …", "Kommentare sind geschlossen."): the
# form's place, so it ends the article as the form's title does, and opens no thread.
_COMMENTS_CLOSED = (r"(?:(?:the\s+)?comments\s+are\s+(?:now\s+)?closed(?:\s+(?:for|on)\s+this\s+(?:post|article|story|entry|page|item))?"
                    r"(?:[,;]\s*(?:but|however)\b[^!?]{0,200}?)?"
                    r"|(?:die\s+)?(?:kommentare\s+sind|kommentarfunktion\s+ist)\s+(?:für\s+diesen\s+(?:beitrag|artikel)\s+)?(?:geschlossen|deaktiviert)"
                    r"|les\s+commentaires\s+sont\s+(?:fermés|clos)|(?:los\s+)?comentarios\s+(?:están\s+)?cerrados)")
_COMMENT_FORM = (r"(?:(?:leave|post|add|write)\s+a\s+(?:reply|comment|response)\b(?:\s+cancel\s+reply)?\s*[:.]?"
                 rf"|[^.!?]{{0,60}}?(?:\.\.\.|…)?\s*{_CANCEL_REPLY}|{_COMMENTS_CLOSED}[.!]?)")
# An invitation to discuss the post, over its thread: "Join the discussion", "Discussion about this post"
# (never a bare "Discussion": a paper's section is called that too).
_DISCUSSION = (r"(?:join\s+the\s+(?:discussion|conversation)\s*(?:\.\.\.|…)?"
               r"|(?:discussion|conversation|comments)\s+(?:about|on)\s+this\s+(?:post|article|story))")
# A blog's pingback or trackback in its thread ("Pingback: Title", "Pingback von Site | 11.09.2011 23:31"):
# another site's post linking here, listed among the comments.
_LINKBACK = r"(?:pingback|trackback)(?:\s*:|\s+(?:von|from|by|de|da|di|od|van|z)\b).{0,240}"
_COMMENTS_HEADER = re.compile(
    rf"""^(?:
        \d[\d,.]*\s+(?:reader\s+|user\s+)?(?:{_COMMENT}|{_THOUGHTS})\b
        (?:\s+(?:on|to|for|zu|über|sur|en|sobre|su|em|op|over|do|na)(?:\s+["“„«'‘].{{0,200}})?)?\s*:?
      | {_LINKBACK}
      | {_COMMENT}\s*(?:\(\d[\d,.]*\)|\d[\d,.]*)?\s*:?
      | {_COMMENT_FORM}
      | {_DISCUSSION}
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_COMMENT_FORM_LINE = re.compile(rf"^{_COMMENT_FORM}$", re.IGNORECASE)
# The bare singular word ("Comment", "Kommentar:"): a button's label under the article, or the name of
# an analysis's own section ("Komentarz" over an expert's comment): removed as a label where every
# removal stands, never the opener of a thread, so it closes nothing.
_COMMENT_LABEL = re.compile(r"^(?:comment|response|kommentar|commentaire|comentario|komentarz)\s*:?$", re.IGNORECASE)


def is_comment_form(text: str) -> bool:
    """The reply form's title ("Leave a Reply"): it follows a thread, or stands alone, and opens none."""
    return _COMMENT_FORM_LINE.match(text) is not None


def _comments_rule(text: str, n_words: int) -> str | None:
    """comments_header's rule name for a line: "comments_header" (a thread's header or a reply form's
    title), "comment_label" (a bare "Comment"), None for neither."""
    if n_words > 40 or not _COMMENTS_HEADER.search(text):
        return None
    return "comment_label" if _COMMENT_LABEL.match(text) else "comments_header"


def is_comments_header(text: str) -> bool:
    """A line that opens a reader thread ("10 comments:", "Kommentare (3)"); a reply form's title and a
    bare "Comment" label open none."""
    return _comments_rule(text, shape.n_words(text)) == "comments_header" and not is_comment_form(text)


@starts_with(_COMMENTS_HEADER)
def comments_header(line: Line, doc: Doc) -> Proposal | None:
    rule = _comments_rule(line.text, line.n_words)
    return whole_line("comments", rule) if rule is not None else None


# A gallery's counter: "Image 1 of 5", "Photo 3/12", "1 of 12", "Bild 2 von 9".
_GALLERY_COUNTER = re.compile(
    r"^(?:(?:image|photo|picture|slide|bild|foto|imagen|immagine|zdjęcie)\s*\d{1,3}\s*(?:of|/|von|de|di|sur|z|van)\s*\d{1,3}"
    r"|\d{1,3}\s+(?:of|/|von|de|di|sur|z|van)\s+\d{1,3})\s*$",
    re.IGNORECASE,
)
# What a page shows in place of an embedded post or player it could not render ("This content is
# imported from Twitter. …", "View this post on Instagram", "A post shared by …", "Externer Inhalt"),
# while it loads ("Loading prices…"), or to a bot check ("Please verify you're not a robot").
_EMBED_NOTICE = re.compile(
    r"""^(?:this\ content\ is\ (?:imported\ from|created\ and\ maintained\ by)
      | view\ this\ (?:post|photo|video|profile)\ on\ (?:instagram|facebook|twitter|x|tiktok|youtube|threads)
      | a\ (?:post|photo|video)\ shared\ by\b
      | this\ embed\ is\ (?:invalid|not\ available)
      | your\ browser\ does\ not\ support\ (?:the\ )?(?:video|audio|iframe|html5)
      | media\ playback\ is\ (?:unsupported|not\ supported)
      | loading\ [\w\ ]{0,40}(?:…|\.\.\.)$ | embedded\ content\ from\b
      # a content blocker's placeholder for an embed ("Klicken Sie auf den unteren Button, um den Inhalt von
      # www.komoot.de zu laden.", "Click the button below to load the content from …")
      | klicken\ sie\ auf\ den\ (?:unteren\ |folgenden\ )?button,?\ um\ (?:den\ )?inhalte?\ (?:von\ \S+\ )?zu\ laden
      | click\ (?:on\ )?the\ (?:button|link)(?:\ below)?\ to\ load\ the\ content\b
      | (?:external|externer|externe[rn]?)\ (?:content|inhalt)$ | contenu\ externe$ | contenido\ externo$ | contenuto\ esterno$
      # an audio player's label: "Listen to this article · 5:12 min Learn more"
      | listen\ to\ (?:this|the)\ (?:article|story)\b[^.!?]{0,40}$
      | (?:escucha|escuchar)\ (?:esta|la)\ (?:nota|noticia)\b[^.!?]{0,40}$ | écouter\ (?:cet|l['’])\ article\b[^.!?]{0,40}$
      | (?:artikel|beitrag)\ (?:anhören|vorlesen(?:\ lassen)?)\b[^.!?]{0,40}$ | ascolta\ (?:questo|l['’])\ ?articolo\b[^.!?]{0,40}$
      | ouça\ (?:esta|a)\ (?:notícia|matéria|reportagem)\b[^.!?]{0,40}$
      # a player's availability ("Video verfügbar bis 28.02.2021", "Video available until 3 March")
      | (?:video|audio|vidéo|vídeo)\ (?:verfügbar\ bis|available\ (?:until|till)|disponible\ (?:jusqu['’]au|hasta\ el))\b(?:[^.!?]|\.(?=\d)){0,30}$
      | (?:new:?\s*)?you\ can\ now\ listen\ to\ [^.!?]{0,40}\b(?:articles?|stories|news)\s*[!.]?$
      | (?:this|the)\ (?:video|audio|content|media|embed|player|post|tweet|graphic|map)\ (?:is\ )?(?:currently\ )?
        (?:not\ available|unavailable|no\ longer\ available|could\ not\ be\ loaded|cannot\ be\ displayed)
        (?:\ (?:in\ your\ (?:region|country|browser)|on\ this\ (?:device|site)|right\ now|at\ the\ moment))?[.!]?$
    )""",
    re.IGNORECASE | re.VERBOSE,
)


# What a page shows instead of the article (newsclean.cleaners.page_kind reads the same lines to tell such a
# page from an article): a bot check or an access block ("Please verify you're not a robot",
# "Checking your browser before accessing …", "Sorry, you have been blocked"), a notice to a browser
# without scripts ("Please enable JavaScript", "You need to enable JavaScript to run this app."), an
# error page's heading ("404 Not Found", "Page not found", "Seite nicht gefunden").
_NOTICE_END = r"\s*[.!]?(?:\s*[|–—-]\s*[^|–—-]{0,40})?$"  # the notice alone, or with the site's name after a bar or a dash
ACCESS_NOTICE = re.compile(
    rf"""^(?:(?P<bot_check>(?:please\ )?(?:verify|confirm|prove)\ (?:that\ )?(?:you(?:'re|’re|\ are)|you'?re)\ (?:not\ a\ (?:robot|bot)|(?:a\ )?human)
        | i(?:'m|’m|\ am)\ not\ a\ robot | are\ you\ a\ (?:robot|human)\b | checking\ (?:if\ the\ site\ connection\ is\ secure|your\ browser)
        | press\ (?:&|and)\ hold\ to\ confirm
        | (?:sorry,?\ )?you\ have\ been\ blocked\b | access\ (?:to\ this\ page\ (?:has\ been|is)\ )?denied{_NOTICE_END}
        | (?:our\ systems\ have\ detected\ )?unusual\ traffic\ from\ your\ (?:computer\ )?network
        | pardon\ our\ interruption\b | attention\ required!?\ *(?:\|\ *cloudflare)?$
        | (?:ddos\ protection|performance\ (?:&|and)\ security)\ by\ cloudflare\b)
      | (?P<script_shell>(?:(?:you\ (?:need|have)|we\ need\ you)\ to\ |please\ )?(?:enable|turn\ on|activate)\ javascript\b
        | (?:javascript|cookies)\ (?:is|are)\ (?:disabled|required)\b
        | (?:this\ (?:site|page|app|website)\ )?requires?\ javascript\b)
      | (?P<error_page>(?:error\ 404|404\ (?:error|not\ found))(?:\s*[-–—:|]\s*(?:page\ )?not\ found)?{_NOTICE_END}
        | (?:(?:error\ )?404\s*[-–—:|]?\s*)?(?:page\ not\ found|seite\ nicht\ gefunden|page\ introuvable|página\ no\ encontrada
            |pagina\ non\ trovata){_NOTICE_END}
        | (?:sorry|oops)[,!]?\ (?:that\ |this\ |the\ )?page\ (?:can(?:'|’|no)t|could\ not)\ be\ found
        | the\ page\ you\ (?:are|were|'re|’re)\ looking\ for\ (?:can(?:'|’|no)t\ be\ found|could\ not\ be\ found|does\ not\ exist|doesn'?t\ exist|no\ longer\ exists)
        | (?:500\ internal\ server\ error|502\ bad\ gateway|503\ service\ (?:temporarily\ )?unavailable){_NOTICE_END})
    )""",
    re.IGNORECASE | re.VERBOSE,
)


# A reading-time label: "5 min read", "Reading time: 4 minutes", "Lesezeit: ca. 3 Minuten".
_READING_TIME = re.compile(
    r"""^(?:(?:(?:estimated\ )?(?:reading|read)\ time|lesezeit|lesedauer|temps\ de\ lecture|tiempo\ de\ lectura
           |tempo\ di\ lettura|tempo\ de\ leitura|leestijd|czas\ czytania)\s*:?\s*(?:ca\.?\s*|about\s+|~\s*)?
           \d{1,3}(?:\s*[-–]\s*\d{1,3})?\s*(?:min(?:s|utes?|uten?|utos?|uti|uut|ut)?|m)\.?
       |\d{1,3}(?:\s*[-–]\s*\d{1,3})?[\s-]*(?:min(?:s|utes?|uten?)?\.?)[\s-]+(?:read(?:ing)?(?:\ time)?|lesen|lesezeit|de\ lecture
           |de\ lectura|di\ lettura|de\ leitura|leestijd|czytania)
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


# A relative time stamp: "3 hours ago", "Posted 2 days ago", "vor 2 Stunden", "il y a 3 jours",
# "hace 2 horas". It dates the page's rendering, not the article, so it is no date evidence.
_RELATIVE_TIME = re.compile(
    r"""^(?:(?:(?:posted|published|updated|edited|modified|last\ updated)\s*:?\s*)?
      (?:(?:about|over|nearly|almost)\ )?(?:\d{1,3}|an?|one)\s+(?:sec(?:ond)?|min(?:ute)?|hour|hr|day|week|month|year)s?\ ago
      |(?:(?:veröffentlicht|aktualisiert)\s+)?vor\ (?:\d{1,3}|einer?|einem)\s+(?:sekunden?|minuten?|stunden?|tag(?:en)?|wochen?|monat(?:en)?|jahr(?:en)?)
      |il\ y\ a\ \d{1,3}\s+(?:secondes?|minutes?|heures?|jours?|semaines?|mois|ans?)
      |hace\ \d{1,3}\s+(?:segundos?|minutos?|horas?|días?|semanas?|meses|mes|años?)
    )\.?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


# The rest of a page's furniture that scrapers keep as text: form fields and their hints ("Email (required)",
# "Type your email…", a form plugin's hidden "This field is for validation purposes …"), template
# placeholders the page never filled ("{{ quickLink.title }}", "Lorem ipsum dolor sit amet …") and
# "Back to top" links.
_FURNITURE = re.compile(
    r"""^(?:(?:e-?mail|name|phone|website|username|comment)\s*\*?\s*\((?:required|optional)\)$
      # the same fields as a comment form labels them in the languages of the cue rules: "E-Mail (wird
      # benötigt und nicht veröffentlicht)", "Mail (will not be published) (required)"
      | (?:e-?mail|mail|name|website|webseite|kommentar|nom|courriel|site\ web|nombre|correo(?:\ electrónico)?|sitio\ web|nome
         |sito\ web|naam|imię|komentarz)\s*\*?(?:\s*\([^()]{0,60}\b(?:required|optional|will\ not\ be\ published|erforderlich|pflichtfeld
         |(?:wird\ )?(?:benötigt|nicht\ veröffentlicht)|obligatoire|requis|facultatif|ne\ sera\ pas\ publiée?|obligatorio|requerido|opcional
         |no\ (?:será|se)\ publica(?:do|rá)|obbligatorio|richiesto|facoltativo|non\ (?:sarà|verrà)\ pubblicat[oa]|obrigatório
         |não\ será\ publicado|verplicht|wordt\ niet\ gepubliceerd|wymagane|nie\ zostanie\ opublikowany)\b[^()]{0,40}\)){1,2}$
      | type\ your\ (?:e-?mail|name|username)(?:\ address)?\s*(?:…|\.\.\.|\*)?$
      | this\ field\ is\ for\ validation\ purposes\b
      | \{\{.*\}\}$ | \{%.*%\}$ | lorem\ ipsum\ dolor\b
      | (?:scroll\ )?back\ to\ (?:the\ )?top(?:\ of\ (?:the\ )?page)?\s*[↑⬆^]?$
    )""",
    re.IGNORECASE | re.VERBOSE,
)


# A blog archive widget's entry: a month or a year with its count of posts ("March (31)",
# "► Dezember (1)", "▼ 2025 (59)"). Not in the rules' start union: every line would try the
# month names at its start; the closing bracket is checked first instead.
_ARCHIVE_COUNT = re.compile(
    r"^(?:[►▼▶▸▾]\s*)?(?:(?:" + MONTH + "|" + FOREIGN_MONTH + r")(?:\s+\d{4})?|\d{4})\s*\(\d{1,5}\)$", re.I)


def _ends_in_bracket():
    """archive_entry's shortcut: the line ends in ")"."""
    import polars as pl

    return pl.col("text").str.ends_with(")")


def _ends_in_bracketed_item():
    """_CATEGORY_COUNT ends in a count in brackets, "(12)" (wider: any bracket with no bracket inside;
    "\\n?": Python's "$" also matches before a final line break)."""
    import polars as pl

    return pl.col("text").str.contains(r"\([^()]+\)\n?$")


@when(_ends_in_bracket)
def archive_entry(line: Line, doc: Doc) -> Proposal | None:
    if line.text.endswith(")") and _ARCHIVE_COUNT.search(line.text):
        return whole_line("navigation", "archive_entry")
    return None


# A category or tag with its count of posts ("Fotografie (615)", "Bookkeeping Best Practices (38)"; a
# year in brackets is not a count: "Results (2019)").
_CATEGORY_COUNT = re.compile(r"^[^\W\d_][\w&'’-]*(?:\s+[^\W\d_][\w&'’-]*){0,2}\s+\((?!(?:19|20)\d\d\))\d{1,5}\)$")


def _is_count_entry(line: Line | None) -> bool:
    """A category's count, or an archive widget's month or year with its count."""
    return line is not None and (_CATEGORY_COUNT.search(line.text) is not None or _ARCHIVE_COUNT.search(line.text) is not None)


@when(_ends_in_bracketed_item)
@in_context(gate=lambda line: line.text.endswith(")") and _CATEGORY_COUNT.search(line.text) is not None)
def category_counts(line: Line, doc: Doc) -> Proposal | None:
    """A run of categories with their post counts: a blog sidebar's widget. One such line alone may
    be a heading that counts its items ("Packing tips (3)"), so it takes a neighbour of the same form."""
    if _CATEGORY_COUNT.search(line.text) and (_is_count_entry(doc.prev(line)) or _is_count_entry(doc.next(line))):
        return whole_line("navigation", "category_counts")
    return None


@starts_with(_GALLERY_COUNTER, _EMBED_NOTICE, ACCESS_NOTICE, _READING_TIME, _RELATIVE_TIME, _FURNITURE)
def placeholder(line: Line, doc: Doc) -> Proposal | None:
    """A gallery's counter, an embed's placeholder text, a reading-time label, a relative time
    stamp, a form field, an unfilled template: the page's furniture in the body."""
    if line.n_words <= 60 and (_GALLERY_COUNTER.search(line.text) or _EMBED_NOTICE.search(line.text)
                               or ACCESS_NOTICE.search(line.text) or _READING_TIME.search(line.text) or _RELATIVE_TIME.search(line.text)
                               or _FURNITURE.search(line.text)):
        return whole_line("navigation", "placeholder")
    return None
