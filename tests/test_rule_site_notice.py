"""The site speaking about itself inside the article: affiliate disclosures, advice disclaimers,
newsletter, app, donation and tip appeals (newsclean.cleaners.rules.site_notice). Written in wordings the dev
pages do not hold; look-alikes are articles about the same topics in the third person."""
import pytest

from newsclean.cleaners.rules.site_notice import site_notice
from tests.ruletools import alone, kind_of, survives

DISCLOSURES = [
    "This guide contains affiliate links, so if you buy something through them we may earn a small commission.",
    "Our writers test every product themselves. When you shop through our links, we might receive a commission.",
    "Every product is picked by our reviewers, and buying through the links below may earn us a commission.",
    "The content on this website is for general informational purposes only and should not be construed as financial advice.",
    "Comments are moderated and will appear once one of our editors has approved them, so please be patient with us.",
    "We ask that comments are civil and free of libellous or hateful material, and we remove those that are not.",
    "Comments may be republished in our print edition; your e-mail address will not be shown to other readers.",
    # a disclaimer of the pages a site links to needs no "we"
    "The Courier is not responsible for the content of external sites. Read about our approach to external linking.",
    # a writer disclosing their own earnings; a site paid by the providers it lists
    "Heads up: when you book a trip through the links on this page, I might receive a small commission from the agency.",
    "Our comparison service is free for readers because it is funded by commissions from the insurers we list.",
    "We may be compensated when you open an account through one of the offers that appear on our pages.",
    # the authors' opinions disclaimed, in no one's voice
    "The views expressed on this blog are those of the authors and do not necessarily reflect those of the university.",
    "The opinions expressed by the contributors of this site are their own, not their employers'.",
    "Gastbeiträge geben nicht zwingend die Meinung der Redaktion wieder.",
]
APPEALS = [
    "Sign up for our free weekly newsletter and get the best of our reporting delivered to your inbox every Friday.",
    "If this story helped you, please consider a small monthly donation so that we can keep our reporting free for everyone.",
    "Got a news tip about your neighbourhood? Send us an email and our reporters will look into it for you.",
    "Follow every match live on your phone: download our free football app and turn on alerts for your team.",
    "The Gazette welcomes letters from readers. We'd like to hear what you think about this or any of our articles.",
    "Watch the latest episode of our evening programme, or tell us about a story you think we should be covering here.",
    # a newsletter's writer asking in the first person singular (a Substack-style footer)
    "The Weekly Ledger is a reader-supported newsletter. To get new essays and help me keep going, consider becoming a paid subscriber.",
    "If you haven't subscribed yet, I'd recommend it: every Sunday you get my notes on the markets and one long read.",
    "Please share this post with a friend who might enjoy it; it is the best way to help me reach new readers.",
]


@pytest.mark.parametrize("line, kind", [*((line, "boilerplate") for line in DISCLOSURES),
                                        *((line, "call_to_action") for line in APPEALS)])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_notices_inside_or_below_the_body_go_with_their_kind(line, kind, where):
    # disclosures and disclaimers are boilerplate; appeals are calls to action
    assert kind_of(line, where) == kind


@pytest.mark.parametrize("line", [
    # the same topics, reported in the third person or as advice to the reader
    "Many bloggers earn a commission through affiliate links, and regulators now require them to disclose it clearly.",
    "The agency told us its brokers may earn a commission on each sale, which buyers rarely see on the final bill.",
    "The company said its newsletter reached two million readers, most of whom open it in their inbox before work.",
    "Readers who want to support local journalism can subscribe to the paper or give a donation to its foundation.",
    "If you're looking for a cheaper tool, we'd recommend comparing the newsletter services on price and deliverability first.",
    "Investors should remember that past returns are not advice, and that every fund carries some risk of loss.",
    '"We would like to hear from the minister himself," the opposition leader told reporters after the vote on Tuesday.',
    "The app, which users can download for free, sends alerts when a train is delayed by more than five minutes.",
    # the first person in an article: no imperative to the reader, or a subscription to something else
    "I would consider becoming a paid subscriber myself if the paper dropped its price, one reader told me.",
    "If you haven't already subscribed to a streaming service, I found that the cheapest plan is enough for most families.",
    "I want to share this story with you because it changed how I think about my own family and my work.",
    "My grandmother told me she had become a member of the choir at eighty, and I have never seen her happier.",
    # "in your inbox" is an appeal only in the site's voice ("our newsletter … in your inbox")
    "If you use a webmail service, I suggest filtering what lands in your inbox before it piles up.",
    "The company said it was not responsible for the content of the leaked documents, which it called forgeries.",
    "Under the new law, comments may be removed within 24 hours if a court finds them unlawful, the minister said.",
    # a writer on affiliate money, earning nothing themselves; a business funded by commissions it earns
    "I think affiliate links hurt trust, because readers rarely learn what the writer earns from each sale.",
    "I asked the brokers whether they earn a commission on every policy, and most of them said yes.",
    "Estate agents in the town are funded by commissions from sellers, which critics say skews their advice.",
    "Workers may be compensated for overtime under the new rules, the labour ministry said on Tuesday.",
    # someone's disclaimer reported: whose views are named
    "The views expressed in the letter do not reflect those of the union, a spokesman said on Tuesday.",
    "The opinions expressed during the debate ranged from cautious support to outright rejection of the plan.",
])
def test_articles_about_the_same_topics_survive(line):
    assert alone(site_notice, line) is None
    assert survives(line)


def test_a_long_article_paragraph_is_not_a_notice_however_it_speaks():
    words = ("We asked readers how they follow the news, and many told us they read our newsletter in their inbox "
             "before work, while others said they rely on friends and family to send them the stories that matter. ")
    assert alone(site_notice, words * 3) is None  # beyond one paragraph's length


@pytest.mark.parametrize("line", [
    "Die mit einem Sternchen markierten Links sind Affiliate-Links: Kaufst du darüber ein, erhalten wir eine kleine Provision.",
    "Cet article contient des liens affiliés : si vous achetez via ces liens, nous touchons une petite commission.",
    "Este artículo contiene enlaces de afiliados y nuestros lectores no pagan nada extra por ello.",
    # a German site's disclaimer for its external links
    "Trotz sorgfältiger Prüfung übernehmen wir keine Haftung für die Inhalte externer Links auf dieser Seite.",
    "Für den Inhalt der verlinkten Seiten sind ausschließlich deren Betreiber verantwortlich, nicht die Redaktion.",
    # the links named as affiliate links, in no one's voice
    "Letzte Aktualisierung am 2.02.2022 / Bei den Verlinkungen handelt es sich um Affiliate Links / Bilder von der API",
    "Some of the links in this list are affiliate links and earn the site a commission.",
    # a subscription offer's fine print
    "Tú también puedes hacer periodismo independiente con nosotros. Cancela cuando quieras.",
    "Unlimited digital access for $1 a week for a year. Cancel anytime.",
])
def test_site_notices_in_other_languages(line):
    assert alone(site_notice, line) is not None


@pytest.mark.parametrize("line", [
    "Die Firma zahlt ihren Vertriebspartnern eine Provision für jeden vermittelten Vertrag, sagte der Sprecher.",
    "Les liens affiliés sont désormais encadrés par la loi, a rappelé le ministre mardi devant les députés.",
    "Das Gericht entschied, dass Plattformen keine Haftung für Inhalte ihrer Nutzer tragen, solange sie nichts davon wissen.",
    "The regulator asked whether links in influencer posts are affiliate links, and how to label them.",
    "Das Abo kostet fünf Euro im Monat und ist laut Anbieter jederzeit kündbar.",
    "The service costs $10 a month, and you can cancel anytime, the company said.",
])
def test_reports_about_the_same_topics_in_other_languages_survive(line):
    assert alone(site_notice, line) is None
