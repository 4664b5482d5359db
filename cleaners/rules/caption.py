"""Captions: image captions, alt text and photo credits."""
from __future__ import annotations

import re

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import GLUE_SEPARATORS, Doc, Line, Proposal, glued_tail, in_context, starts_with, tail_start, when, whole_line

_CREDIT_WORDS = (r"(?:photo|photos|photograph|photographer|image|images|picture|pictures|pic|video|credit|credits|courtesy|screenshot|screen\ ?grab|illustration|graphic|file|getty|shutterstock|istock|reuters|afp|ap|epa|alamy|pool|handout|unsplash|pixabay|pexels|imago|dpa"
                 # the same words in the other languages of the cue rules ("(Foto: privat)", "(Bildquelle: …)",
                 # "(Symbolbild)"), not their words for a source, which a paragraph cites ("(Quelle: Destatis)")
                 r"|foto|fotos|fot|bild|bilder|bildquelle|bildnachweis|fotoquelle|symbolbild|archivbild|archivfoto|kuva"
                 r"|imagen|imágenes|immagine|immagini|imagem|imagens|zdjęcie|afbeelding)")
# The picture agencies and stock libraries a credit names after a photographer's name ("Jane Doe/AFP").
_AGENCIES = r"getty(?:\ images)?|afp|reuters|ap|dpa|epa|imago|picture\ alliance|shutterstock|istock(?:photo)?|alamy"
# A parenthetical at the end of a line that credits an image: "(AP Photo/Evan Vucci)", "(Image source: …)".
_END_CREDIT = re.compile(r"\((?=[^()]{0,80}\b" + _CREDIT_WORDS + r"\b)[^()]{2,80}\)\s*$", re.I | re.X)
# The same bracket at the start of a paragraph, where an image's credit sat above its first line.
_LEAD_CREDIT = re.compile(r"^\((?=[^()]{0,80}\b" + _CREDIT_WORDS + r"\b)[^()]{2,80}\)\s+(?=\S)", re.I | re.X)
# "Photo" in other languages (German, Finnish, Spanish, Italian, Portuguese, Polish, Dutch): "Foto: dpa",
# "Bild: Reuters", "Kuva: Lehtikuva"; German blogs' and papers' lead picture: "Titelbild: …", "Beitragsbild: …".
_PHOTO_ELSEWHERE = (r"foto|bild(?:er)?|bildquelle|bildnachweis|fotoquelle|(?:titel|beitrags|aufmacher|header|vorschau)(?:bild|foto)"
                    r"|kuva|imagen|immagine|imagem|zdjęcie|afbeelding"
                    r"|crédits?\ photos?|quelle|fuente|fonte|źródło|bron")
# A whole line that is a credit: "Photo: Getty Images", "Image credit: Reuters", "Getty Images".
_LINE_CREDIT = re.compile(
    # (in brackets too: "(Foto: DBT/Jane Doe)")
    rf"^\(?(?:(?:photo|image|picture|video|main|top|header|featured)?\s*(?:photo|image|picture|photograph|credit|source|courtesy|caption|{_PHOTO_ELSEWHERE})s?(?:\s+(?:credit|source|by))?\s*[:|/–—-]"
    r"|fot\.\s*\S"  # Polish "Fot. Jan Kowalski / Agencja Gazeta"
    r"|(?:photo|image|picture|photograph|screenshot|screen\ ?grab)s?\s+(?:by|via|courtesy\ of|credit)\b"
    # a bare agency name, not the first part of a compound ("EPA-rated range: 245-318 miles")
    r"|(?:getty\ images|shutterstock|istock(?:photo)?|ap\ photo|afp|reuters|epa)\b(?![-–'’])[^.!?]{0,40}$"
    r"|(?:getty|ap|dpa|xinhua|anp|ansa|supplied|provided|handout)$"
    # a photographer's or owner's name before an agency: "Augusta National/Getty Images", "© Jane Doe/dpa"
    rf"|(?:©\s*)?[^.!?/]{{2,60}}/\s*(?:{_AGENCIES})\b[^.!?]{{0,25}}$"
    r"|\(?(?:photo|image|picture)s?\)?$)",
    re.I | re.X,
)
# A labelled credit ("Photo: Getty Images", "Image by Jane Doe"); a bare agency name is not enough
# after a sentence, where it may start a truncated one ("Reuters reported the figures").
_LABELLED_CREDIT = re.compile(
    rf"^(?:photo|image|picture|video|photograph|{_PHOTO_ELSEWHERE})s?(?:\s+(?:credit|source))?\s*[:|/]\s*\S"
    r"|^(?:photo|image|picture|photograph)s?\s+(?:by|via|courtesy\ of)\s+[A-Z]"
    rf"|^©\s*[^.!?]{{0,60}}\b(?:{_AGENCIES}|photo|foto)\b[^.!?]{{0,30}}$",
    re.I | re.X,
)
# Photo captions are written in the present tense: "X speaks to media", "X appears in court on …".
_CAPTION_VERBS = (
    "appears|arrives|attends|speaks|talks|looks|poses|waves|gestures|listens|walks|stands|sits|holds|smiles|"
    "testifies|addresses|delivers|leaves|greets|shakes|reacts|answers|celebrates|watches|prays|hugs|departs|"
    "displays|meets|points|rides|visits|wears|kneels|mourns|cries|lays|embraces|signs|pauses|exits|enters|"
    "is seen|are seen|is pictured|are pictured|pictured|shown"
)
_CAPTION_SUBJECT_VERB = re.compile(r"^(?:[A-Z][\w.'’-]*\s+){1,7}(?:" + _CAPTION_VERBS + r")\b")
# The same verbs as an alt text writes them, with no finite verb ("Homeowners shaking hands with an
# agent"). Only for the weak, unpunctuated form: in a sentence they open a clause ("Protesters
# holding signs gathered outside the court on March 3.").
_CAPTION_PARTICIPLES = (
    "appearing|arriving|attending|speaking|talking|looking|posing|waving|gesturing"
    "|listening|walking|standing|sitting|holding|smiling|testifying|addressing|greeting|shaking|reacting|celebrating"
    "|watching|praying|hugging|displaying|pointing|riding|wearing|kneeling|mourning|crying|embracing|signing|pausing"
)
_CAPTION_SUBJECT_PARTICIPLE = re.compile(r"^(?:[A-Z][\w.'’-]*\s+){1,7}(?:" + _CAPTION_PARTICIPLES + r")\b")
_DATE_OR_PLACE = re.compile(
    r"\b(?:on\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\bin\s+[A-Z][\w.]*(?:\s+[A-Z][\w.]*)*,\s*[A-Z]"
    r"|\b\d{4}\b",
)


# The rules' necessary conditions over the lines frame (newsclean.cleaners.rules.base.when,
# newsclean.cleaners.engine.rule_conditions). Each is wider than the test it mirrors: literal tests on the
# folded lower case (`lower`) where the pattern is re.I, and Python's white space (\s, str.split,
# str.rstrip) as Rust's \s plus the separators \x1c-\x1f that only Python counts.
_WS = r"[\s\x1c-\x1f]"
# every word of _CREDIT_WORDS holds one of these (lower case)
_CREDIT_STEMS = ["photo", "imag", "pic", "video", "credit", "courtesy", "screen", "illustration", "graphic", "file",
                 "getty", "stock", "reuters", "afp", "ap", "epa", "alamy", "pool", "handout", "unsplash", "pixabay",
                 "pexels", "dpa", "fot", "bild", "kuva", "imág", "immagin", "zdjęcie", "afbeelding"]
# every label of _LABELLED_CREDIT's first two forms holds one of these (lower case; _PHOTO_ELSEWHERE's
# "imagen", "imagem", "crédit photo" hold "image" or "photo")
_LABEL_STEMS = ["photo", "image", "picture", "video", "foto", "bild", "kuva", "immagine", "zdjęcie", "afbeelding",
                "quelle", "fuente", "fonte", "źródło", "bron"]
# _AGENCY_TAIL's two forms: an agency after "/" or "via" (over the lower case), or an agency's
# capitals before "/" (over the text; two patterns: a lower-case "ap" would slow the scan)
_AGENCY_AFTER = rf"(?:/|via){_WS}*(?:getty|afp|reuters|ap|dpa|epa|imago|picture alliance|shutterstock|istock|alamy)"
_AGENCY_CAPITALS = r"(?:REUTERS|AFP|AP|EPA|ANP|DPA)/"


def _ends_in_bracket():
    """end_credit's shortcut: the line ends in ")" but for white space."""
    import polars as pl

    return pl.col("text").str.contains(rf"\){_WS}*$")


def _ends_in_credit_bracket():
    """end_credit's tests: the line ends in ")" and names a credit word (_END_CREDIT's lookahead)."""
    import polars as pl

    return _ends_in_bracket() & pl.col("lower").str.contains_any(_CREDIT_STEMS)


def _has_glued_tail():
    """glued_tail's need: a sentence end followed by white space (_SENTENCE_END_THEN_MORE)."""
    import polars as pl

    return pl.col("text").str.contains(rf"[.!?…][\"'’”)\]]*{_WS}")


def _names_agency_tail():
    """_AGENCY_TAIL's need: an agency after "/" or "via", or in capitals before "/"."""
    import polars as pl

    return pl.col("lower").str.contains(_AGENCY_AFTER) | pl.col("text").str.contains(_AGENCY_CAPITALS)


def _may_end_in_credit():
    """credited_caption's _before_credit: a credit bracket that ends the line, or a glued tail that
    names an agency (_AGENCY_TAIL)."""
    return _ends_in_credit_bracket() | (_has_glued_tail() & _names_agency_tail())


def _may_have_glued_credit():
    """glued_credit's tests: a glued tail, and in it a label (_LABELLED_CREDIT), "©" or an agency
    (_AGENCY_TAIL)."""
    import polars as pl

    return _has_glued_tail() & (pl.col("lower").str.contains_any(_LABEL_STEMS)
                                | pl.col("text").str.contains("©", literal=True)
                                | _names_agency_tail())


def _may_mark_ellipsis_credit():
    """ellipsis_credit's "Credit..." marker (_ELLIPSIS_CREDIT, case-sensitive)."""
    import polars as pl

    return pl.col("text").str.contains(rf"Credits?{_WS}*(?:\.\.|…)")


def _opens_with_credit_bracket():
    """lead_credit's shortcut and _LEAD_CREDIT: the line starts with "(" and names a credit word."""
    import polars as pl

    return pl.col("text").str.starts_with("(") & pl.col("lower").str.contains_any(_CREDIT_STEMS)


# A caption's credit as the New York Times' text renders it, glued to the caption: "… last
# month.Credit...Jane Roe for The New York Times". The marker follows only a picture's caption.
_ELLIPSIS_CREDIT = re.compile(r"(?:^|(?<=[\w.!?)\"'’”]))\s*Credits?\s*(?:\.{2,3}|…)\s*[A-Z][^.!?]{1,80}$")


@when(_may_mark_ellipsis_credit)
def ellipsis_credit(line: Line, doc: Doc) -> Proposal | None:
    """A line that ends in a "Credit..." marker and its credit: the whole line is a caption."""
    if "redit" not in line.text or _ELLIPSIS_CREDIT.search(line.text) is None:
        return None
    return whole_line("caption", "ellipsis_credit")


@when(_ends_in_credit_bracket)
def end_credit(line: Line, doc: Doc) -> Proposal | None:
    """A photo credit in brackets at the end of a line: remove just the bracket."""
    if not line.text.rstrip().endswith(")"):
        return None  # the bracket ends the line but for white space (a shortcut; same result)
    m = _END_CREDIT.search(line.text)
    if m is None:
        return None
    return Proposal("caption", "end_credit", start=m.start(), end=m.end())


# The same verbs in the plural, for a caption's common-noun subject ("Residents wade through …").
_CAPTION_VERBS_PLURAL = (
    "arrive|attend|gather|wait|wade|walk|stand|sit|watch|look|hold|line up|march|rally|protest|pray|mourn|"
    "embrace|hug|celebrate|cheer|react|pose|carry|search|inspect|survey|clean|remove|work|play|perform|"
    "ride|wave|listen|leave|visit|greet|shake|kneel|fight|battle|sort|rest|stroll|cross"
)
# A present-tense description whatever its subject: "A man walks through …", "Firefighters battle …".
_ANY_SUBJECT_CAPTION = re.compile(
    r"^(?:[\w'’.-]+\s+){1,6}(?:" + _CAPTION_VERBS + "|" + _CAPTION_VERBS_PLURAL + r")\b"
    # the picture or clip describing itself: "Dashcam video shows the moment …", "This image shows …"
    r"|^(?:[\w'’.-]+\s+){0,3}(?:video|footage|image|photo|picture|screenshot|still|map|graphic|chart)s?\s+(?:shows?|showing)\b",
    re.I
)
# A photographer's name before an agency, unlabelled, after a caption's sentence: "… your phone?
# Morsa Images/DigitalVision via Getty Images", "… on Monday. Jane Roe/AFP".
_AGENCY_TAIL = re.compile(rf"^[^.!?]{{2,60}}(?:/\s*(?:{_AGENCIES})|\bvia\s+(?:{_AGENCIES}))\b[^.!?/]{{0,25}}$"
                          # the agency first, in its capitals, then the photographer: "REUTERS/Eli Hartman/File Photo"
                          r"|^(?-i:REUTERS|AFP|AP|EPA|ANP|DPA)/\s*[A-Z][^.!?]{1,60}$", re.I | re.X)
CREDITED_CAPTION_MAX_WORDS = 35  # a caption is a sentence or two; a lede can carry a credit too


@when(_may_end_in_credit)
def credited_caption(line: Line, doc: Doc) -> Proposal | None:
    """A line that ends in a photo credit and before it describes the picture in the present tense
    ("A man walks through a flooded street on Monday. (Photo by Jane Roe/AP)"): the whole line is
    the caption. A paragraph in the past tense keeps its text and loses only the credit
    (end_credit): a scraper glues a credit to the lede too."""
    if line.n_words > CREDITED_CAPTION_MAX_WORDS + 8:
        return None
    before = _before_credit(line)
    if before:
        before = _GALLERY_PREFIX.sub("", before)  # "Item 1 of 2 An oil pump jack is seen …", "[1/2]A man …"
    if before and len(before.split()) <= CREDITED_CAPTION_MAX_WORDS and _ANY_SUBJECT_CAPTION.search(before):
        return whole_line("caption", "credited_caption")
    return None


# A gallery's counter before a picture's caption, glued on as some sites' text renders it.
_GALLERY_PREFIX = re.compile(r"^(?:(?:item|image|photo|slide)\s+\d{1,3}\s+of\s+\d{1,3}\s+|\[\d{1,3}/\d{1,3}\]\s*)", re.I)


def _before_credit(line: Line) -> str | None:
    """The text before a photo credit that ends the line, in brackets ("… (AP Photo/Jane Roe)") or
    a photographer and agency after the last sentence ("… on Monday. Jane Roe/AFP"), or None."""
    if line.text.rstrip().endswith(")"):
        m = _END_CREDIT.search(line.text)
        return line.text[:m.start()].strip() if m else None
    at = tail_start(line.text)  # the sentence test (glued_tail) last: it reads the whole line
    if at is not None and _AGENCY_TAIL.search(line.text[at:].lstrip(GLUE_SEPARATORS)) and glued_tail(line) == at:
        return line.text[:at].strip()
    return None


@when(_opens_with_credit_bracket)
def lead_credit(line: Line, doc: Doc) -> Proposal | None:
    """A photo credit in brackets glued before a paragraph: remove just the bracket, or the whole
    line when what follows describes the picture in the present tense (as credited_caption)."""
    if not line.text.startswith("("):
        return None  # a shortcut; same result
    m = _LEAD_CREDIT.search(line.text)
    if m is None or not shape.is_sentence_like(line.text[m.end():], min_words=4):
        return None
    after = line.text[m.end():]
    if len(after.split()) <= CREDITED_CAPTION_MAX_WORDS and _ANY_SUBJECT_CAPTION.search(after):
        return whole_line("caption", "lead_credit")  # "(Photo by …) Students board a bus …": the caption
    return Proposal("caption", "lead_credit", end=len(m.group(0).rstrip()))


@when(_may_have_glued_credit)
def glued_credit(line: Line, doc: Doc) -> Proposal | None:
    """A photo credit glued after a paragraph's last sentence ("… in March. Photo: Getty Images")."""
    at = tail_start(line.text)  # the sentence test (glued_tail) last: it reads the whole line
    if at is None:
        return None
    tail = line.text[at:].lstrip(GLUE_SEPARATORS)
    if (_LABELLED_CREDIT.search(tail) or _AGENCY_TAIL.search(tail)) and glued_tail(line) == at:
        return Proposal("caption", "glued_credit", start=at)
    return None


# An image's labelled caption or credit, as some sites' text renders them ("Image copyright Getty
# Images", "Image caption Students gathered outside …"): the label makes any length a caption.
_LABELLED_CAPTION = re.compile(r"^(?:image|picture|photo|media)\s+(?:copyright|caption|source)\b", re.I)
# A wire archive photo's caption: "FILE - In this Jan. 5, 2018 file photo, …", "FILE PHOTO: A view of …"
# (capitals: the agencies' own label).
_FILE_PHOTO = re.compile(r"^FILE(?:\s+PHOTO)?\s*(?:[-–—:]|\s-)\s*\S")


@starts_with(_LINE_CREDIT, _LABELLED_CAPTION, _FILE_PHOTO)
def credit_line(line: Line, doc: Doc) -> Proposal | None:
    if (line.n_words <= 14 and _LINE_CREDIT.search(line.text)) \
            or (line.n_words <= 60 and (_LABELLED_CAPTION.search(line.text) or _FILE_PHOTO.search(line.text))):
        return whole_line("caption", "credit_line")
    return None


# A caption's label on its own line, the caption on the next ("Image caption," then "Party members
# applauded …", as the BBC's pages render them; "Caption" above each picture's text).
_CAPTION_LABEL = re.compile(r"^(?:(?:image|picture|photo|media)\s+)?caption\s*[,:]?$", re.I)
_UNDER_LABEL_MAX_WORDS = 40
_LABEL_MAX_CHARS = 20  # "Picture caption:"


def _is_caption_label(text: str) -> bool:
    """A bare caption label on its own line ("Image caption,")."""
    return len(text) <= _LABEL_MAX_CHARS and _CAPTION_LABEL.match(text) is not None


def _under_caption_labels(doc: Doc) -> list[int]:
    """The indexes of the lines right under a caption label: where under_caption_label may
    propose (one look at the document's texts; most have no such label)."""
    return [k + 1 for k, text in enumerate(doc.texts[:-1]) if _is_caption_label(text)]


# No text gate: one on the word count would pass nearly every line, while the candidates (the
# lines under a label) are few.
@in_context(candidates=_under_caption_labels)
def under_caption_label(line: Line, doc: Doc) -> Proposal | None:
    """The line right under a bare caption label is that caption."""
    if not line.index or not _is_caption_label(doc.lines[line.index - 1].text) or line.n_words > _UNDER_LABEL_MAX_WORDS:
        return None
    return whole_line("caption", "under_caption_label")


# An image's alt text or label that names it as one: "Acme Movers logo", "Product Logo for Ring",
# "Image 3: A simple AI agent" (a numbered figure label keeps "Figure 3." out: papers' captions are
# text their references keep).
_IMAGE_LABEL = re.compile(
    r"^(?:(?!(?:the|a|an|our|its|their|his|her|my|your|this|that|new|old)\s)(?:[\w&'’.+-]+\s+){1,5}logo|(?:product\s+|company\s+)?logo\s+(?:for|of)\s+\S.{0,40}"
    r"|(?:image|photo|picture|img)\s+\d{1,3}\s*:\s*\S.{0,120}"
    # a person's picture, named by its owner: "Jane Roe's avatar", "Amar Hussain's image"
    r"|(?:(?-i:[A-Z])[\w.'’-]*\s+){0,3}(?-i:[A-Z])[\w.'’-]*?['’]s\s+(?:avatar|image|photo|picture|headshot|profile\s+(?:picture|photo)))$",
    re.I,
)
_IMAGE_LABEL_STARTS = ("image", "photo", "picture", "img", "logo", "product", "company")
_IMAGE_LABEL_ENDS = ("logo", "avatar", "image", "photo", "picture", "headshot")


def _may_name_image():
    """image_label's shortcut: the lower case ends in one of _IMAGE_LABEL_ENDS or starts with one of
    _IMAGE_LABEL_STARTS."""
    import polars as pl

    low = pl.col("lower").str
    return low.contains("(?:" + "|".join(_IMAGE_LABEL_ENDS) + ")$") | low.contains("^(?:" + "|".join(_IMAGE_LABEL_STARTS) + ")")


@when(_may_name_image)
def image_label(line: Line, doc: Doc) -> Proposal | None:
    """A short line that names the image it stands for (_IMAGE_LABEL)."""
    # the pattern's "… logo" and "…'s avatar" forms end the line, its other forms start it (a shortcut: the regex
    # would try up to five words at the start of every line; Line.lower folds as re.I matches)
    low = line.lower
    if not low.endswith(_IMAGE_LABEL_ENDS) and not low.startswith(_IMAGE_LABEL_STARTS):
        return None
    if line.n_words <= 25 and _IMAGE_LABEL.search(line.text):
        return whole_line("caption", "image_label")
    return None


# An image's alt text that describes it as one: "A photo of a smoothie bowl with sliced avocado",
# "Infographic showing the top dental trends", "Screenshot of the terminal output after …", "Landscape
# photograph of the rolling hills". A story's sentence about a picture says what became of it, with a
# finite verb ("A photo of the suspect was released on Tuesday", "A map of the area shows …"); alt text
# names what the picture holds, in a phrase. (Not a "map", "drawing" or "snapshot" of a program's
# documentation: "map of patterns to ranks".) A book's title ("The Picture of Dorian Gray") and a reader's
# "Here are images of …" or "Take photos of …" start with a word no image's description does.
_IMAGE_NOUN = (r"(?:photo|photograph|image|picture|pic|illustration|infographic|graphic|chart|diagram|headshot|portrait"
               r"|screenshot|screen\ ?grab|cartoon|rendering|collage|gif|animation)s?")
_NOT_A_DESCRIPTOR = (r"(?:the|or|and|of|for|to|in|on|with|take|taking|took|here|there|are|is|see|view|few|some|more|our|my|your|his|her|their|its|this|these"
                     r"|those|all|any|new|first|last|latest|one|click|tap|share|send|upload|add|print|download|save)")
_IMAGE_DESCRIPTION = re.compile(
    rf"""^(?:an?\ )?(?:(?!{_NOT_A_DESCRIPTOR}\b)[\w-]+\ ){{0,2}}?{_IMAGE_NOUN}
        \ (?:of|showing|depicting|illustrating|featuring|displaying|highlighting|comparing)\b""",
    re.I | re.X,
)
# a finite verb of the first sentence: the picture as a story's subject
_STORY_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|can|could|may|might|shows|showed|reveals|revealed|appears|appeared|went"
    r"|goes|emerged|surfaced|sparked|drew|prompted|became|becomes|received|won|made|makes|says|said|suggests|suggested)\b",
    re.I,
)
_FIRST_SENTENCE = re.compile(r"^.*?(?:[.!?](?=\s|$)|$)")
IMAGE_DESCRIPTION_MAX_WORDS = 60


@starts_with(_IMAGE_DESCRIPTION)
def image_description(line: Line, doc: Doc) -> Proposal | None:
    """An image's alt text that describes the image as one (_IMAGE_DESCRIPTION), with no story verb
    in its first sentence, not a heading that introduces a list (": ") or a question."""
    t = line.text
    if line.n_words > IMAGE_DESCRIPTION_MAX_WORDS or t.endswith(":") or "?" in t or not _IMAGE_DESCRIPTION.search(t):
        return None
    if _STORY_VERB.search(_FIRST_SENTENCE.match(t).group()):
        return None
    return whole_line("caption", "image_description")


# sentence punctuation; the brackets and operators of code ("content = read_document(doc)",
# "int t(int *a) {") and of remarks in parentheses ("(depending on height of fixture)")
_NOT_IN_ALT_TEXT = ".,;:!?\"'" + "=(){}[]<>#`"


def _alt_text_shaped(text: str) -> bool:
    """A short line with no capital letter and no punctuation, in a cased script: how an image's
    alt text or file label reads. Not one that starts with a number (a recipe's "1 tablespoon
    ground cinnamon", a spec's "200 lb"), or with a list marker ("- may be counterfeit": an item of
    a list, Markdown's or the HTML path's output). Not a line of code or a remark in parentheses
    either (brackets, "=", "#"): alt text describes a picture in words."""
    if len(text) <= 80 and text.lower() == text and not text[:1].isdigit() and text[:1] not in "½¼¾⅓⅔⅛" \
            and any(c.isalpha() for c in text) and not shape.LIST_BULLET.match(text) \
            and not any(c in text for c in _NOT_IN_ALT_TEXT) and not text.startswith(("http", "www")) \
            and 1 <= len(shape.words(text)) <= 8:
        # Scripts without case (CJK, Arabic…) have no capitals at all: only judge cased text.
        return any(c.isupper() != c.islower() for c in text if c.isalpha())
    return False


# an image's file name as its label: words joined by hyphens or underscores ("big-cartel-profile"),
# or numbered ("product overview 1")
_FILE_LABEL = re.compile(r"^[^\W_]+(?:[-_][^\W_]+)+$|\s\d+$")


def _list_item_shaped(text: str) -> bool:
    return _alt_text_shaped(text) and not _FILE_LABEL.search(text)


def _may_be_alt_text():
    """_alt_text_shaped's tests, widened: at most 80 characters, no capital A-Z (text.lower() ==
    text), none of _NOT_IN_ALT_TEXT, not opening with a digit 0-9 or a fraction, "http" or "www"."""
    import polars as pl

    text = pl.col("text").str
    return (pl.col("n_chars") <= 80) & ~text.contains("[A-Z]") & ~text.contains_any(list(_NOT_IN_ALT_TEXT)) \
        & ~text.contains("^(?:[0-9½¼¾⅓⅔⅛]|http|www)")


@when(_may_be_alt_text)
@in_context(gate=lambda line: _alt_text_shaped(line.text))
def alt_text(line: Line, doc: Doc) -> Proposal | None:
    """A line shaped like alt text (_alt_text_shaped) that is a file label, or that stands alone as
    alt text does by its picture: next to another such line that is no file label it is an item of
    a list written without bullets ("slopes", "obstacles to be avoided", "lawn type"), which the
    decision keeps inside the body. (A gallery's labels run together too, but read as file names:
    "big-cartel-profile", "comparison-5".)"""
    if not _alt_text_shaped(line.text):
        return None
    if not _FILE_LABEL.search(line.text) \
            and any(nb is not None and _list_item_shaped(nb.text) for nb in (doc.prev(line), doc.next(line))):
        return None
    return whole_line("caption", "alt_text")


# _CAPTION_SUBJECT_VERB and _CAPTION_SUBJECT_PARTICIPLE, widened ([A-Z][\w.'’-]* as [A-Z]\S*)
_SUBJECT_THEN = rf"^(?:[A-Z]\S*{_WS}+){{1,7}}"


def _may_be_caption_sentence_text():
    """caption_sentence's gate: _CAPTION_SUBJECT_VERB (capitalised words, then a caption verb)."""
    import polars as pl

    return pl.col("text").str.contains(_SUBJECT_THEN + "(?:" + _CAPTION_VERBS + ")")


def _may_be_present_tense_caption():
    """present_tense_caption's tests: no full stop at the end, and _CAPTION_SUBJECT_VERB or
    _CAPTION_SUBJECT_PARTICIPLE."""
    import polars as pl

    return ~pl.col("text").str.ends_with(".") \
        & pl.col("text").str.contains(_SUBJECT_THEN + "(?:" + _CAPTION_VERBS + "|" + _CAPTION_PARTICIPLES + ")")


def _may_be_caption_above_credit_text():
    """caption_above_credit's gate: a full stop at the end, and _ANY_SUBJECT_CAPTION (over the lower
    case, its words as any non-space runs)."""
    import polars as pl

    any_subject = (rf"^(?:\S+{_WS}+){{1,6}}(?:{_CAPTION_VERBS}|{_CAPTION_VERBS_PLURAL})"
                   rf"|^(?:\S+{_WS}+){{0,3}}(?:video|footage|image|photo|picture|screenshot|still|map|graphic|chart)s?{_WS}+show")
    return pl.col("text").str.ends_with(".") & pl.col("lower").str.contains(any_subject)


def _after_image(line: Line, doc: Doc) -> bool:
    prev = doc.prev(line)
    return prev is not None and (alt_text(prev, doc) is not None or credit_line(prev, doc) is not None)


def _may_be_caption_sentence(line: Line) -> bool:
    """caption_sentence's test on the line's own text (its gate: without it, no proposal)."""
    return line.n_words <= 35 and _CAPTION_SUBJECT_VERB.search(line.text) is not None


@when(_may_be_caption_sentence_text)
@in_context(gate=_may_be_caption_sentence)
def caption_sentence(line: Line, doc: Doc) -> Proposal | None:
    """A present-tense caption with a date or place ("X appears in court on Feb. 19, 2018, in …"),
    or any present-tense caption right below an image's alt text."""
    if not _may_be_caption_sentence(line):
        return None
    if _DATE_OR_PLACE.search(line.text) or _after_image(line, doc):
        return whole_line("caption", "caption_sentence")
    return None


def _may_be_caption_above_credit(line: Line) -> bool:
    """caption_above_credit's test on the line's own text: a present-tense description of a
    picture, at most a sentence or two, ending in a full stop (a headline above the lead picture's
    credit is in the present tense too, but has none: "Storms threaten Thanksgiving travel")."""
    return line.n_words <= CREDITED_CAPTION_MAX_WORDS and line.text.endswith(".") \
        and _ANY_SUBJECT_CAPTION.search(line.text) is not None


@when(_may_be_caption_above_credit_text)
@in_context(gate=_may_be_caption_above_credit)
def caption_above_credit(line: Line, doc: Doc) -> Proposal | None:
    """A present-tense description right above a photo credit on its own line ("Travelers wait in
    line at a checkpoint on Tuesday." then "Jane Roe/AP"): the picture's caption. A paragraph in the
    past tense above a credit ("… said the mayor." then "Getty Images") stays."""
    after = doc.next(line)
    if after is None or not _may_be_caption_above_credit(line) or credit_line(after, doc) is None:
        return None
    return whole_line("caption", "caption_above_credit")


@when(_may_be_present_tense_caption)
def present_tense_caption(line: Line, doc: Doc) -> Proposal | None:
    """Weak: "<Name> speaks to media", "Person holding a phone", with no full stop: a caption when it
    sits outside the body."""
    if not line.text.endswith(".") and line.n_words <= 15 \
            and (_CAPTION_SUBJECT_VERB.search(line.text) or _CAPTION_SUBJECT_PARTICIPLE.search(line.text)):
        return whole_line("caption", "present_tense_caption", strong=False)
    return None
