"""Calls to action: the page speaking to the reader ("What do you think?", "Have a tip? Send it to us!",
"Kostenlos registrieren und weiterlesen", "Abonnez-vous")."""
from __future__ import annotations

import re

from newsclean.cleaners.rules.base import Doc, Line, Proposal, whole_line, starts_with

# Reader-engagement openings. Each addresses the reader (you/your/us/our) or asks them to act.
_OPENINGS = re.compile(
    r"""^(?:
        what\ do\ you\ think | what\ are\ your\ thoughts | tell\ us | let\ us\ know | share\ your
      | leave\ a\ comment | join\ the\ (?:conversation|discussion|debate) | comment\ below | sound\ off
      | (?:have|got)\ a\ (?:news\ )?(?:tip|story(?:\ (?:idea|tip))?\s*\?) | send\ (?:it|us|your|them)\b | e-?mail\ us | contact\ us | write\ to\ us
      | sign\ up | subscribe\ (?:to|for|now|today|here) | get\ (?:our|the)\ [\w\s]{0,30}newsletter
      | join\ (?:our|my)\ (?:[\w'’-]+\ ){0,3}(?:newsletter|mailing\ list|e-?mail\ list)\b
      | (?:please\ )?follow\ us | like\ us\ on | find\ us\ on | connect\ with\ us | stay\ (?:connected|updated|informed)
      | share\ (?:this|on)\b | click\ (?:here|to) | tap\ (?:here|to) | download\ (?:our|the)\ [\w\s]{0,20}app
      | don'?t\ miss | support\ (?:our|independent|local) | become\ a\ (?:member|subscriber|supporter) | donate\ (?:now|today)
      | we\ want\ to\ hear | we'?d\ love\ to\ hear | do\ you\ have\ (?:a\ story|information|news) | want\ more
      | to\ (?:receive|get)\ [\w\s]{0,30}(?:newsletter|alerts|updates) | enter\ your\ e-?mail
      | (?:get|receive)\ [\w\s'’,]{0,40}\b(?:in|to)\ your\ inbox
      # a newsletter's pitch: "Be the first to know about new openings", "Keep up with the latest in design"
      | be\ the\ first\ to\ (?:know|hear|find\ out|get)\b | keep\ up\ (?:to\ date\ )?with\ (?:the\ latest|all\ the\ latest|our)\b
      | stay\ (?:up\ to\ date|in\ the\ loop)\b | help\ (?:me|us)\ spread\ the\ word\b
      | (?:our|quality|independent|local)\ journalism\ (?:needs|depends\ on|relies\ on)\ (?:you|your)
      | please\ (?:subscribe|donate|consider\ (?:subscribing|supporting|donating|a\ (?:subscription|donation)))
      | (?:e-?mail|contact|reach|write\ to)\ (?:the\ )?(?:staff\ |senior\ |contributing\ )?(?:author|reporter|writer|columnist|editor)s?\b
      | (?:contact|reach|e-?mail)\ [^@\n]{2,60}?\ at\ [\w.+-]+@[\w-]+\.
      | never\ miss\ (?:(?:a|another|an)\ (?:story|update|thing|headline|post|episode|deal)|the\ latest|out\ on\ (?:our|the\ latest))\b
      | press\ play\b
      | (?:did\ you\ (?:like|enjoy)|(?:if\ )?you\ (?:liked|enjoyed)|(?:liked|enjoyed)|do\ you\ (?:like|enjoy))(?:\ reading)?\ (?:this|the|our|my)\ (?:article|post|story|piece|guide|tutorial|recipe|episode|video|newsletter|blog)\b
      | buy\ me\ a\ coffee | (?:support|join|follow)\ (?:me|us)\ on\ (?:patreon|ko-?fi|substack)\b
      | pin\ (?:this|it|me)\ (?:for\ later|now)\b | (?:save|pin)\ (?:this|it)\ (?:to|on)\ pinterest\b
      | did\ you\ (?:make|try|cook|bake)\ (?:this|these)\b | tag\ (?:me|us)\ on\ (?:instagram|facebook|tiktok)\b
      # a feedback widget: "Was this article helpful?"
      | (?:was|is)\ this\ (?:(?:article|page|post|guide|information|answer|content)\ )?(?:helpful|useful)\s*\?
      | did\ you\ find\ (?:this|it)\ (?:(?:article|page|post|guide|information)\ )?(?:helpful|useful)\b
      | did\ this\ (?:(?:article|page|post)\ )?(?:answer\ your\ question|help(?:\ you)?)\s*\? | found\ this\ (?:helpful|useful)\s*\?
      | cet\ article\ (?:vous\ )?a(?:-t-il)?\ été\ utile | ¿?\s*te\ (?:ha\ )?(?:resultado|resultó|pareció)\ útil
      | (?:questo\ articolo|questa\ pagina)\ ti\ è\ stat[oa]\ utile
      | your\ e-?mail\ (?:address\ )?will\ not\ be\ (?:published|shared|displayed)
      # a sign-up form's promise under its e-mail field
      | we\ (?:will\ )?never\ (?:sell|share|rent|spam)\ (?:your\ )?(?:personal\ )?(?:information|info|data|details|e-?mail(?:\ address)?)\b
      | we\ respect\ your\ privacy\b | (?:you\ can\ )?unsubscribe\ at\ any\ ?time\b
      # a comment form's checkbox, as WordPress writes it in its languages
      | save\ my\ name,?\ e-?mail,?\ (?:and\ )?website\ in\ this\ browser
      | meinen\ namen,?\ (?:meine\ )?e-?mail(?:-adresse)?\ und\ (?:meine\ )?website\ in\ diesem\ browser
      | enregistrer\ mon\ nom,?\ (?:mon\ )?(?:e-?mail|courriel)\ et\ (?:mon\ )?site
      | guardar\ mi\ nombre,?\ (?:correo\ electrónico|e-?mail)\ y\ (?:sitio\ )?web
      | salva\ il\ mio\ nome,?\ (?:l'|indirizzo\ )?e-?mail\ e\ (?:il\ )?sito\ web
      # a paywall or an app speaking to the reader
      | (?:immediate|instant|unlimited|full)\ (?:online\ |digital\ )?access\ to\ (?:all\ (?:issues|articles|content|stories)
        |the\ full\ (?:article|story|archive|issue)|this\ (?:article|story)|our\ (?:archive|journalism|content)|premium|every\ (?:article|story))
      | to\ (?:view|read|access|see)\ (?:the\ )?(?:full|entire|whole|rest\ of\ the)\ (?:story|article|post)
      | if\ you(?:'re|’re|\ are)\ (?:seeing\ this\ message|already\ a\ (?:subscriber|member))
      | already\ (?:a\ (?:subscriber|member)|registered|have\ an\ account)(?:\s*[?!]|[,.]?\s+(?:log|sign|click|tap)\b)
      | create\ (?:a|your)\ (?:free\ )?account
      | (?:log|sign)\ in\ to\ (?:continue|read|keep\ reading|comment) | to\ continue\ reading\b
      | (?:please\ )?(?:log|sign)\ ?in\b[^.!?]{0,100}?\bto\ (?:read\ or\ )?(?:comment|reply|post\ (?:a\ )?(?:comments?|replies|a\ reply))\b
      | you\ (?:must|need\ to|have\ to)\ be\ (?:logged|signed)\ in\b | register\ (?:for\ free\ |now\ )?to\ (?:continue\ reading|comment)\b
      | this\ (?:article|story|content|page)\ is\ (?:only\ )?(?:for|available\ (?:to|for)|reserved\ for|exclusive\ to)
        \ (?:our\ )?(?:paid\ |premium\ |digital\ )?(?:subscribers|members)
      | (?:(?:article|contenu)\ )?réservé\ aux\ abonnés | offrir\ (?:l'|cet\ )article | (?:nur\ )?für\ abonnenten$
      | (?:artikel|beitrag)\ verschenken | (?:contenido\ )?exclusivo\ para\ (?:suscriptores|abonados|socios)
      | (?:articolo\ )?riservato\ agli\ abbonati | regala\ (?:este|questo)\ articolo
      | you(?:'ve|’ve|\ have)\ (?:reached|hit)\ (?:your|the)\ (?:\w+\ )?(?:limit|maximum)
      | you(?:'ve|’ve|\ have)\ (?:read|used)\ (?:all\ )?(?:of\ )?(?:your\ )?\d*\s*(?:of\ (?:your\ )?\d+\ )?free\b
      | turn\ on\ (?:notifications|alerts|push) | get\ (?:the|our)\ (?:[\w-]+\ )?app\b
      | follow\ (?:the\ )?(?-i:[A-Z@][\w.'’-]*)(?:\ (?-i:[A-Z@][\w.'’-]*)){0,3}\ on\ (?:twitter|x|facebook|instagram|threads|bluesky|linkedin|tiktok|mastodon)\b
      # the same in other languages (German, French, Spanish, Italian, Portuguese, Dutch, Polish): only
      # forms that are imperatives or questions to the reader, not a third person's "he shares"
      | teile[n]?\ (?:sie\ )?(?:diesen|dieses|den|die)\ (?:beitrag|artikel|seite) | jetzt\ (?:teilen|abonnieren|registrieren|anmelden|spenden|kommentieren)
      # a button: "Jetzt für Golf-Lotse Top-News anmelden", "Jetzt kostenlos die App herunterladen!" (not a
      # headline's "Jetzt müssen sich alle Bürger anmelden": the word after "jetzt" is no verb)
      | jetzt\ (?:für|kostenlos|gratis|hier|den|die|das|zum|unseren?|unsere|bei|im|gleich)\ (?:[\w-]+\ ){0,3}
        (?:anmelden|abonnieren|registrieren|spenden|herunterladen)\s*!?$
      | (?:(?:den|diesen)\ )?(?:artikel|beitrag)\ (?:mit\ (?:anderen|freunden)\ )?(?:teilen|kommentieren|drucken|merken)(?:\s*/\s*\w+)?\s*:?$
      # a blog's share and like bar, as WordPress labels it in its languages ("Like this:", "Gefällt mir:", "Teilen mit:")
      | (?:like\ this|gefällt\ mir|teilen\ mit|j['’]aime(?:\ (?:ça|ceci))?|me\ gusta\ esto|mi\ piace|curtir\ isso|vind\ ik\ leuk|lubię\ to)\s*:$
      # its like button while it loads ("Like Loading...", "Gefällt mir Lade …") and its count of likes
      # ("%d bloggers like this:", "3 Bloggern gefällt das:")
      | (?:like|gefällt\ mir|j['’]aime|me\ gusta|mi\ piace|curtir|vind\ ik\ leuk|lubię\ to)\s+
        (?:loading|lade|wird\ geladen|chargement|cargando|caricamento|carregando|laden|wczytywanie)\s*(?:…|\.\.\.)?$
      | (?:%d|\d+)\ (?:bloggers?\ likes?\ this|bloggern\ gefällt\ das|blogueurs\ aiment\ (?:ceci|cette\ page)
        |blogueros\ les\ gusta\ esto|blogger\ piace\ questo|blogueiros\ gostam\ disto|bloggers\ vinden\ dit\ leuk)\s*:?$
      # "If you enjoyed this article" in the other languages
      | wenn\ (?:ihnen|dir|euch)\ (?:unser|unsere|dieser|diese|dieses|der|die|das)\ (?:artikel|beitrag|text|podcast|newsletter)\ gefallen\ hat
      | si\ (?:te|le)\ (?:ha\ )?gust(?:ó|ado)\ (?:este|esta|el|la|nuestr[oa])\ (?:artículo|nota|noticia|contenido|newsletter)
      | se\ ti\ è\ piaciut[oa]\ (?:questo|questa|l['’])\ ?(?:articolo|post|contenuto|newsletter)
      | se\ (?:você\ )?gostou\ (?:deste|desta|do|da)\ (?:artigo|matéria|post|conteúdo|newsletter)
      | (?:jeśli|jeżeli)\ (?:spodobał|podobał)\ (?:ci|wam|się)\ (?:się\ )?(?:ten\ )?(?:artykuł|tekst|wpis)
      # "Write to us" and "Every donation helps" in the other languages; a quiz's "Test your knowledge"
      | (?:puedes?\ |puede\ )?escr[ií]b(?:enos|anos|irnos)\b | schreib(?:en\ sie|t)?\ uns\b | écrivez-nous | scriv(?:ici|eteci)\b
      | escreva-nos | schrijf\ ons\b | napisz\ do\ nas\b
      # "Your contribution helps …", in the cue languages
      | (?:your|ihr|ihre|dein|deine)\ (?:support|contribution|donation|beitrag|spende|unterstützung)\ (?:helps|hilft)\b[^.!?]{0,40}?\b(?:us|our|uns|unser\w*)\b
      | lesen\ sie\ (?:hier\ )?(?:auch\ )?(?:einen\ )?weiteren\b
      | (?:every|jede|chaque|cada|ogni|każda)\ (?:small\ |little\ |kleine\ |petit\ |pequeña\ |piccola\ |mała\ )?(?:donation|spende|don|donación|donazione|doação|darowizna)
        \ (?:helps|counts|hilft|zählt|compte|aide|ayuda|cuenta|aiuta|conta|ajuda|pomaga)\b
      | (?:test\ your\ knowledge|teste\ dein\ wissen|testen\ sie\ ihr\ wissen|teste\ dich|testez\ vos\ connaissances
        |pon\ a\ prueba\ tus\ conocimientos|metti\ alla\ prova\ le\ tue\ conoscenze|teste\ seus\ conhecimentos
        |test\ je\ kennis|sprawdź\ swoją\ wiedzę)\b[^.!?]{0,40}[!?:]?$
      # "Never miss …" in German: "Keine Neuigkeiten aus der Branche mehr verpassen:", "Nichts mehr verpassen!"
      | (?:keine\ [\w-]+(?:\ [\w-]+){0,4}\ mehr|nichts\ mehr|nie\ (?:mehr|wieder))\ verpassen\s*[:!]
      | (?:hier\ )?kostenlos\ (?:(?:zum|für\ den)\ newsletter\ )?(?:registrieren|anmelden|abonnieren|testen)
      | (?:zum|für\ den)\ newsletter\ (?:anmelden|registrieren)\s*[!:.]?$ | (?:schon|bereits)\ registriert | abonnieren\ sie
      | was\ (?:denkst\ du|denken\ sie|meinst\ du|meinen\ sie)(?:\ (?:darüber|dazu|davon))?\s*\??$ | ihre\ meinung\ zu\ (?:diesem|dem)\ (?:thema|artikel|beitrag)
      | gefällt\ (?:dir|ihnen)\ (?:unser|unsere|dieser|diese|dieses|der|die|das)\b | besuchen\ sie\ unser
      | entdecke[n]?\ (?:sie\ )?(?:weitere|mehr)\b | lust\ auf\ mehr\b
      | (?:sie\ lesen|du\ liest|lesen\ sie)\ gern\b | verraten\ sie\ (?:uns\ )?(?:gerne\ )?in\ den\ kommentaren
      | folgen\ sie\ uns | folge\ uns | bitte\ registrieren | registrieren\ sie\ sich | kommentieren\ sie
      | (?:sie\ müssen|du\ musst)\ (?:angemeldet|eingeloggt)\ sein | (?:war|ist)\ (?:der|dieser|dieses|das)\ (?:artikel|beitrag|text)\ (?:hilfreich|nützlich|lesenswert)
      | (?:hat|haben)\ ihnen\ (?:der|dieser|dieses|das)\ (?:artikel|beitrag) | möchten\ sie\ (?:den|diesen|dieses|das)\ (?:artikel|beitrag)
      | unterstützen\ sie\ (?:uns|unsere|unabhängigen|diese|den|das) | unterstütze\ (?:uns|unsere|den|das|(?-i:[A-Z]))
      | (?:du\ willst|willst\ du|sie\ wollen|wollen\ sie)\ (?:mehr\ von\ uns|(?:nichts|keine\ \w+)\ (?:mehr\ )?verpassen)
      | (?:¡\s*)?(?:mira|visita|sigue|únete\ a)\ (?:[\w\s]{0,20}\ )?nuestr[oa]s?\ (?:canal|canales|redes|p[aá]gina|grupo)
      # "Sigue toda la información de Economía en Facebook y X, o en nuestra newsletter", "Follow all the
      # latest news on Facebook and X"
      | sigue\ (?:toda\ )?(?:la\ )?(?:información|actualidad|última\ hora|noticias?)\b[^.!?]{0,80}?\ en\ (?:facebook|twitter|x|instagram|whatsapp|telegram|nuestr[oa])\b
      | follow\ (?:all\ )?(?:the\ )?(?:latest\ )?(?:news|updates|coverage)\b[^.!?]{0,60}?\ on\ (?:facebook|twitter|x|instagram|whatsapp|telegram)\b
      | partage[rz]\ (?:cet|cette|sur|l') | abonnez-vous | inscrivez-vous | suivez-nous | cet\ article\ vous\ a\ plu
      | pour\ (?:lire\ la\ suite|accéder\ en\ illimité)(?:\ (?:de\ )?(?:cet\ article|l['’]article|à\ [\w\ ]{1,30}))?\s*[,:.!…]*$
      | laissez\ un\ commentaire | (?:je\ fais|faites|faire)\ un\ don\b | vous\ devez\ être\ connecté | soutenez-nous
      | compart(?:e|ir)\ (?:esta|este|en\ (?:facebook|twitter|whatsapp)) | suscr[ií]bete | reg[ií]strate | s[ií]guenos
      | deja\ (?:un|tu)\ comentario | valora\ (?:esta|este)\ (?:noticia|art[ií]culo|contenido) | ¿te\ gust[óo] | debes\ iniciar\ sesi[óo]n
      | condividi\ (?:su|questo|questa|l') | iscriviti | seguici | abbonati\ | lascia\ un\ commento | devi\ essere\ connesso
      | compartilhe\ (?:esta|este|no|na) | inscreva-se | siga-nos | nos\ siga\b | deixe\ (?:um|seu)\ comentário | você\ precisa\ estar\ logado
      | deel\ (?:dit|dit\ artikel|op) | volg\ ons | schrijf\ je\ in | laat\ een\ reactie\ achter
      | czekamy\ na\ (?:wasze|państwa|twoje)\ (?:maile|listy|opinie|komentarze|uwagi|sygnały|zdjęcia)\b
      | udostępnij\ (?:na|ten|artykuł) | zapraszamy\ (?:też\ |również\ |także\ )?do\ (?:subskrypcji|kontaktu|komentowania) | zapisz\ się | obserwuj\ nas | subskrybuj | skomentuj
    )""",
    re.IGNORECASE | re.VERBOSE,
)


@starts_with(_OPENINGS)
def reader_engagement(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 25 and _OPENINGS.search(line.text):
        return whole_line("call_to_action", "reader_engagement")
    return None
