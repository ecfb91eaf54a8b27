/**
 * unokit web texts, English and French — dependency-free ES module.
 *
 *   lang()                   current language code ("en" | "fr")
 *   setLang(code)            switch (remembered in localStorage)
 *   t(key, params)           a text, with {name} placeholders filled in
 *   cardName(notation, side) the name of the visible face of a card
 *   colorName(code)          "Red", "Rouge", ...
 *   describeEvent(ev, ctx)   one history event as a sentence (or null)
 *   translatePage(root)      fill every [data-i18n] / [data-i18n-attr] element
 *
 * The language is the browser's by default (French when navigator.language
 * starts with "fr"), switchable at any time.
 */

import { EN_HOUSE, FR_HOUSE } from "./house_texts.js";
import { EN_UX, FR_UX } from "./texts.js";

const STORE_KEY = "unokit.lang";
export const LANGS = ["en", "fr"];

const EN = {
  // generic
  "app.title": "unokit",
  "app.tagline": "Classic UNO, UNO Flip and UNO Flex with friends and bots",
  "lang.switch": "Français",
  "lang.short": "FR",
  "lang.switch.title": "Passer en français",
  "btn.skip": "Skip to the game",
  "lobby.timer": "Time per move",
  "lobby.timer.none": "No limit",
  "lobby.timer.s": "{n} seconds",
  "lobby.name.required": "Please enter your name.",
  "lobby.field.range": "{label}: choose a whole number from {min} to {max}.",
  "lobby.field.bad": "{label}: this value is not allowed ({why}).",
  "btn.help": "Keys",
  "btn.help.title": "Keyboard shortcuts (?)",
  "btn.close": "Close",
  "btn.copy": "Copy",
  "btn.copied": "Copied!",
  "btn.log": "Log",
  "btn.scores": "Scores",
  "btn.leave": "Lobby",
  "conn.connecting": "Connecting…",
  "conn.lost": "Connection lost — reconnecting…",
  "conn.ok": "Connected",
  "error.generic": "Something went wrong: {msg}",
  "error.noRoom": "There is no room with the code {code}.",

  // lobby
  "lobby.create": "Create a room",
  "lobby.join": "Join a room",
  "lobby.join.code": "Room code",
  "lobby.join.go": "Open",
  "lobby.name": "Your name",
  "lobby.name.placeholder": "e.g. Alex",
  "lobby.variant": "Game",
  "variant.classic": "Classic UNO",
  "variant.flip": "UNO Flip",
  "variant.flex": "UNO Flex",
  "variant.classic.desc": "The original: 108 cards, Wild Draw Four.",
  "variant.flip.desc": "Double-sided cards: a Flip card turns everything to the dark side.",
  "variant.flex.desc": "Flex cards with a second side, unlocked by your Power Card.",
  "lobby.seats": "Seats",
  "lobby.seats.count": "Players",
  "lobby.seat": "Seat {n}",
  "lobby.seat.you": "You",
  "lobby.seat.human": "Open seat (a friend)",
  "lobby.seat.bot": "Bot — {level}",
  "bot.easy": "easy",
  "bot.normal": "normal",
  "bot.hard": "hard",
  "bot.random": "random moves",
  "bot.heuristic": "heuristic",
  "bot.rlcard-rule": "RLCard rules",
  "lobby.scoring": "Scoring",
  "lobby.target": "Target score",
  "lobby.scoringMode": "Scoring mode",
  "scoringMode.highest": "Winner scores the others' cards (official)",
  "scoringMode.lowest": "Everyone scores their own cards; lowest total wins",
  "lobby.matchMode": "Match",
  "matchMode.points": "Play to the target score",
  "matchMode.single_round": "A single round",
  "lobby.house": "House rules",
  "lobby.more": "More options",
  "lobby.submit": "Create the room",
  "lobby.creating": "Creating…",
  "lobby.recent": "Your rooms",
  "lobby.recent.none": "No room yet.",
  "lobby.flexMax": "UNO Flex is for 2 to 8 players.",
  "opt.targetScore": "Target score",
  "opt.scoringMode": "Scoring",
  "opt.matchMode": "Match",
  "opt.stacking": "Stacking draw cards",
  "opt.stacking.off": "Off (official)",
  "opt.stacking.same_symbol": "Same card only (+2 on +2)",
  "opt.stacking.escalate": "Equal or bigger (+2 then +4)",
  "opt.jumpIn": "Jump-in: play an identical card out of turn",
  "opt.sevenZero": "7-0: a 7 swaps hands, a 0 passes all hands",
  "opt.drawUntilPlayable": "Draw until you get a playable card",
  "opt.forcedPlay": "Forced play: you must play if you can",
  "opt.noBluff": "No bluffing: wild draw cards only when legal",
  "opt.handSize": "Cards dealt",
  "opt.unoPenalty": "Penalty for not calling UNO",
  "opt.falseCatchPenalty": "Penalty for a false catch",
  "opt.dealerRotation": "Next dealer",
  "opt.dealerRotation.left": "The player on the left",
  "opt.dealerRotation.winner": "The round winner",
  "opt.dealerRotation.random": "Random",
  "opt.misplayPenalty": "Penalty card for an illegal play",
  "opt.flipPairing": "Flip card pairing",
  "opt.flipPairing.canonical": "As in the real deck",
  "opt.flipPairing.random_seeded": "Shuffled",
  "opt.flexFlexSideWD4Restricted": "Flex Wild Draw Four flex side can be challenged",

  // room / waiting
  "room.title": "Room {code}",
  "room.invite": "Invite link",
  "room.invite.hint": "Send this link to your friends: they pick a name and sit down.",
  "room.invite.copy": "Copy the invite link",
  "room.invite.copied": "Invite link copied: {link}",
  "room.waiting": "Waiting for players…",
  "room.players": "{n} players",
  "room.seatOpen": "Open seat",
  "room.takeSeat": "Sit here",
  "room.watch": "Watch as a spectator",
  "room.spectating": "You are watching. Spectators see no hand.",
  "room.start": "Start the game",
  "room.fillBots": "Fill empty seats with bots",
  "lobby.botLevel": "Bot level",
  "room.joinAs": "Join this room",
  "room.joined": "{name} joined",
  "room.host": "host",
  "room.bot": "bot",
  "room.offline": "offline",
  "room.settings": "Settings",
  "room.notStarted": "The game starts when every seat is taken.",

  // table
  "table.round": "Round {n}",
  "table.target": "to {n}",
  "table.side.light": "Light side",
  "table.side.dark": "Dark side",
  "table.dir.cw": "Clockwise",
  "table.dir.ccw": "Counter-clockwise",
  "table.color": "Colour: {color}",
  "table.draw": "Draw pile",
  "table.drawCount": "{n} cards",
  "table.discard": "Discard pile",
  "table.cards": "{n} cards",
  "table.card": "1 card",
  "table.yourTurn": "Your turn",
  "table.yourTurn.play": "Your turn: play a highlighted card or draw.",
  "table.yourTurn.drawn": "You drew {card}: play it or keep it.",
  "table.yourTurn.color": "Choose the colour.",
  "table.yourTurn.challenge": "{who} played {card}: accept the penalty or challenge.",
  "table.yourTurn.stack": "{n} cards are coming to you: stack a draw card or take them.",
  "table.waitingFor": "Waiting for {who}…",
  "table.jumpIn": "Jump in! You hold the very same card: play it now.",
  "table.waitingColor": "{who} is choosing a colour…",
  "table.waitingChallenge": "{who} decides whether to challenge…",
  "table.spectator": "Spectating",
  "table.you": "You",
  "table.hand": "Your hand",
  "table.playableCard": "{card}, playable",
  "multi.play": "Play {n} cards",
  "refuse.lastAction": "{card} cannot be your last card: these rules forbid going out on an action card. Draw.",
  "refuse.lastWild": "{card} cannot be your last card: these rules forbid going out on a wild. Draw.",
  "multi.group": "Cards picked to play together",
  "multi.order": "{cards}: the last one sets the colour.",
  "multi.more": "Pick more {number}s to play them with it, or play.",
  "multi.picked": "{card}, picked {n}",
  "multi.add": "{card}, can be added",
  "multi.uno": "UNO!",
  "multi.uno.title": "Call UNO with this play: it leaves you one card (U)",
  "multi.notFirst": "{card} cannot go first: pick {first} first, then add {card}.",
  "table.sort": "Sort",
  "table.sort.title": "Sort your hand (S)",
  "table.sort.color": "By colour",
  "table.sort.number": "By number",
  "table.sort.none": "As dealt",
  "table.pending": "+{n} pending",
  "table.power": "Power Card",
  "table.power.G": "Power Card green: may use a flex side",
  "table.power.X": "Power Card red: cannot use a flex side",
  "table.uno.safe": "UNO!",
  "table.uno.vulnerable": "One card — no UNO!",
  "table.backs": "Backs of {who}'s cards",
  "table.drawTopBack": "Back of the top card of the draw pile",
  "act.draw": "Draw",
  "act.drawPending": "Take {n}",
  "act.pass": "Keep",
  "act.pass.title": "Keep the card you drew and end your turn (P)",
  "act.uno": "UNO!",
  "act.catch": "Catch!",
  "act.catch.title": "{who} did not call UNO: make them draw (C)",
  "act.accept": "Accept",
  "act.challenge": "Challenge",
  "act.next": "Next round",
  "act.newMatch": "New match",
  "act.cancel": "Cancel",
  "pick.color": "Choose a colour",
  "pick.color.flip": "The Flip exposed a wild: choose a colour",
  "pick.side": "Play {card} on which side?",
  "pick.side.regular": "Regular side",
  "pick.side.flex": "Flex side",
  "pick.target": "Who draws?",
  "pick.swap": "Swap hands with whom?",
  "challenge.title": "Challenge?",
  "challenge.text":
    "{who} played {card}. It is allowed only when its player holds no card of the colour that was in play. Accept and draw {base}, or challenge: if it was a bluff, {who} draws instead; if not, you draw {fail}.",
  "challenge.untilColor": "until you get {color}",
  "challenge.untilColorPlus": "until you get {color}, plus 2",
  "revealed.title": "{who}'s hand, shown to you",
  "round.over": "Round {n} is over",
  "round.winner": "{who} wins the round: {points} points.",
  "round.winner.you": "You win the round: {points} points!",
  "round.blocked": "Nobody could play: no points this round.",
  "round.hand": "Cards left",
  "round.value": "Value",
  "round.total": "Total",
  "round.player": "Player",
  "match.over": "Match over",
  "match.winner": "{who} wins the match!",
  "match.winner.you": "You win the match!",
  "match.scoreboard": "Scoreboard",
  "match.target": "First to {n} points",
  "match.targetLowest": "Until someone reaches {n}: lowest total wins",
  "match.waitNext": "Waiting for the next round…",
  "log.title": "Game log",
  "log.empty": "Nothing yet.",
  "refuse.over": "The round is over.",
  "refuse.notYourTurn": "It is not your turn: {card} waits.",
  "refuse.decide": "Answer the question on the table first.",
  "refuse.drawn": "You drew a card: play that card or pass. {card} waits.",
  "refuse.card": "{card} does not match {top} (colour {color}): same colour, same number or symbol, or a wild.",
  "ready.next": "Ready for the next round",
  "ready.rematch": "Rematch",
  "ready.waiting": "✓ Ready · waiting for {who}",
  "ready.done": "✓ Ready",
  "ready.force": "Deal now",
  "ready.forceMatch": "Start now",
  "chat.title": "Chat",
  "chat.send": "Send",
  "chat.none": "No messages yet. Say hello while the table fills.",
  "chat.label": "Chat with the table",
  "chat.placeholder": "Say something to the table…",
  "chat.from": "💬 {who}: {text}",
  "chat.unread": "{n} unread chat messages",

  // help
  "help.title": "Keyboard",
  "help.arrows": "Move between your cards",
  "help.home": "First / last card",
  "help.enter": "Play the selected card (a card that can go with others of its number: pick it)",
  "help.draw": "Draw a card",
  "help.pass": "Keep the drawn card (pass), or play the cards picked",
  "help.uno": "Call UNO",
  "help.catch": "Catch a player who did not call UNO",
  "help.colors": "Choose a colour (1–4, or its initial: Red Yellow Green Blue; pinK Teal Orange Violet)",
  "help.challenge": "Accept / challenge a wild draw card",
  "help.sort": "Sort your hand",
  "help.log": "Show or hide the log",
  "help.next": "Next round (when it is over)",
  "help.escape": "Close a dialog",
  "help.help": "This help",

  // colours
  "color.R": "Red",
  "color.Y": "Yellow",
  "color.G": "Green",
  "color.B": "Blue",
  "color.Pk": "Pink",
  "color.Tl": "Teal",
  "color.Or": "Orange",
  "color.Pu": "Purple",

  // card names
  "card.number": "{color} {n}",
  "card.flipIcon": "{name} (flip icon)",
  "card.flexColor": "{name} (flex {flex})",
  "card.S": "{color} Skip",
  "card.R": "{color} Reverse",
  "card.D2": "{color} Draw Two",
  "card.D1": "{color} Draw One",
  "card.D5": "{color} Draw Five",
  "card.F": "{color} Flip",
  "card.SE": "{color} Skip Everyone",
  "card.FS": "{color} Flex Skip",
  "card.FR": "{color} Flex Reverse",
  "card.FD2": "{color} Flex Draw Two",
  "card.W": "Wild",
  "card.W4": "Wild Draw Four",
  "card.W2": "Wild Draw Two",
  "card.DW": "Wild",
  "card.WDC": "Wild Draw Color",
  "card.WAF": "Wild All Flip",
  "card.WAD": "Flex Wild All Draw",
  "card.WTD": "Flex Wild Target Draw 2",
  "card.FW4": "Flex Wild Draw Four",
  "card.flexSide.FS": "Skip All",
  "card.flexSide.FR": "Reverse then Skip",
  "card.flexSide.FD2": "every other player draws 1",
  "card.flexSide.WAD": "every other player draws 2",
  "card.flexSide.WTD": "a chosen player draws 2",
  "card.flexSide.FW4": "a chosen player draws 4, no challenge",
  "card.flexSide.number": "matches {flex}",
  "card.regularSide.number": "matches {color}",
  "card.regularSide.FS": "Skip",
  "card.regularSide.FR": "Reverse",
  "card.regularSide.FD2": "Draw Two",
  "card.regularSide.WAD": "a plain Wild",
  "card.regularSide.WTD": "a plain Wild",
  "card.regularSide.FW4": "Wild Draw Four (can be challenged)",

  // events (third person / "you" forms)
  "ev.RoundStarted": "Round {round} begins; {dealer} deals.",
  "ev.RoundStarted.you": "Round {round} begins; you deal.",
  "ev.CardTurned.start": "The first card is {card}.",
  "ev.CardTurned.ignored": "{card} is turned up and ignored; another card is turned.",
  "ev.CardTurned.returned": "{card} goes back into the deck; another card is turned.",
  "ev.Played": "{who} played {card}",
  "ev.Played.you": "You played {card}",
  "ev.Played.color": " and chose {color}",
  "ev.Played.flex": " on its flex side",
  "ev.Played.plainWild": " on its regular side, as a plain Wild (nobody draws)",
  "ev.Played.target": ", targeting {target}",
  "ev.Played.jumpIn": " (jump-in!)",
  "ev.Played.multi": "{who} played {cards} in one go",
  "ev.Played.multi.you": "You played {cards} in one go",
  "ev.Drew.one": "{who} drew a card",
  "ev.Drew.many": "{who} drew {n} cards",
  "ev.Drew.one.you": "You drew {cards}",
  "ev.Drew.many.you": "You drew {n} cards: {cards}",
  "ev.Drew.none": "{who} tried to draw, but there is no card left",
  "ev.Drew.none.you": "You tried to draw, but there is no card left",
  "ev.Drew.challenge": " after the challenge",
  "ev.Drew.catch": " for not calling UNO",
  "ev.Drew.stack": " (stacked draw cards)",
  "ev.Drew.misplay": " for an illegal play",
  "ev.Drew.false_catch": " for a false catch",
  "ev.Drew.backs": " (backs: {backs})",
  "ev.Passed": "{who} kept the card.",
  "ev.Passed.you": "You kept the card.",
  "ev.ColorChosen": "{who} chose {color}.",
  "ev.ColorChosen.you": "You chose {color}.",
  "ev.Accepted": "{who} accepted the penalty.",
  "ev.Accepted.you": "You accepted the penalty.",
  "ev.Challenged.success": "{who} challenged {offender}: it was a bluff!",
  "ev.Challenged.fail": "{who} challenged {offender}, but the play was legal.",
  "ev.Challenged.success.you": "You challenged {offender}: it was a bluff!",
  "ev.Challenged.fail.you": "You challenged {offender}, but the play was legal.",
  "ev.Challenged.revealed": " Their hand: {cards}.",
  "ev.UnoCalled": "{who} called UNO!",
  "ev.UnoCalled.you": "You called UNO!",
  "ev.Caught.success": "{who} caught {target} without UNO!",
  "ev.Caught.fail": "{who} tried to catch {target}, in vain.",
  "ev.Caught.success.you": "You caught {target} without UNO!",
  "ev.Caught.fail.you": "You tried to catch {target}, in vain.",
  "ev.Skipped": "{who} is skipped.",
  "ev.Skipped.you": "You are skipped.",
  "ev.Reversed": "The direction is reversed: {dir}.",
  "ev.Flipped.dark": "Everything flips to the dark side! The top card is now {card}.",
  "ev.Flipped.light": "Everything flips back to the light side! The top card is now {card}.",
  "ev.Reshuffled": "The discard pile ({n} cards) is shuffled into a new draw pile.",
  "ev.PowersChanged": "Power Cards: {list}.",
  "ev.PowersChanged.all": "All Power Cards are green again.",
  "ev.HandsSwapped.two": "{a} and {b} swapped hands.",
  "ev.HandsSwapped.all": "Everyone passed their hand on.",
  "ev.Misplayed": "{who} tried to play {card}, which is not allowed.",
  "ev.Eliminated": "{who} holds too many cards and is out of the match ({n} cards go under the draw pile).",
  "ev.Eliminated.you": "You hold too many cards and are out of the match ({n} cards go under the draw pile).",
  "ev.Misplayed.you": "You tried to play {card}, which is not allowed.",
  "ev.RoundEnded": "{who} won the round and scores {points} points.",
  "ev.RoundEnded.you": "You won the round and score {points} points.",
  "ev.RoundEnded.lowest": "{who} went out; everyone else adds their own cards.",
  "ev.RoundEnded.none": "The round is blocked: no one scores.",
  "ev.MatchEnded": "{who} won the match!",
  "word.you": "you",
  "word.and": "and",
  "word.or": "or",
  "word.green": "green",
  "word.red": "red",
};

const FR = {
  "app.title": "unokit",
  "app.tagline": "UNO classique, UNO Flip et UNO Flex entre amis et avec des robots",
  "lang.switch": "English",
  "lang.short": "EN",
  "lang.switch.title": "Switch to English",
  "btn.skip": "Aller au jeu",
  "lobby.timer": "Temps par coup",
  "lobby.timer.none": "Illimité",
  "lobby.timer.s": "{n} secondes",
  "lobby.name.required": "Indiquez votre nom.",
  "lobby.field.range": "{label} : choisissez un nombre entier de {min} à {max}.",
  "lobby.field.bad": "{label} : cette valeur n'est pas permise ({why}).",
  "btn.help": "Touches",
  "btn.help.title": "Raccourcis clavier (?)",
  "btn.close": "Fermer",
  "btn.copy": "Copier",
  "btn.copied": "Copié !",
  "btn.log": "Journal",
  "btn.scores": "Scores",
  "btn.leave": "Accueil",
  "conn.connecting": "Connexion…",
  "conn.lost": "Connexion perdue — reconnexion…",
  "conn.ok": "Connecté",
  "error.generic": "Un problème est survenu : {msg}",
  "error.noRoom": "Il n'y a pas de salle avec le code {code}.",

  "lobby.create": "Créer une salle",
  "lobby.join": "Rejoindre une salle",
  "lobby.join.code": "Code de la salle",
  "lobby.join.go": "Ouvrir",
  "lobby.name": "Votre nom",
  "lobby.name.placeholder": "p. ex. Alex",
  "lobby.variant": "Jeu",
  "variant.classic": "UNO classique",
  "variant.flip": "UNO Flip",
  "variant.flex": "UNO Flex",
  "variant.classic.desc": "L'original : 108 cartes, Super Joker +4.",
  "variant.flip.desc": "Cartes recto verso : une carte Flip fait tout passer du côté sombre.",
  "variant.flex.desc": "Des cartes Flex à double usage, débloquées par votre carte Pouvoir.",
  "lobby.seats": "Places",
  "lobby.seats.count": "Joueurs",
  "lobby.seat": "Place {n}",
  "lobby.seat.you": "Vous",
  "lobby.seat.human": "Place libre (un ami)",
  "lobby.seat.bot": "Robot — {level}",
  "bot.easy": "facile",
  "bot.normal": "moyen",
  "bot.hard": "difficile",
  "bot.random": "coups au hasard",
  "bot.heuristic": "heuristique",
  "bot.rlcard-rule": "règles RLCard",
  "lobby.scoring": "Points",
  "lobby.target": "Score à atteindre",
  "lobby.scoringMode": "Décompte",
  "scoringMode.highest": "Le gagnant marque les cartes des autres (officiel)",
  "scoringMode.lowest": "Chacun marque ses propres cartes ; le plus petit total gagne",
  "lobby.matchMode": "Partie",
  "matchMode.points": "Jouer jusqu'au score à atteindre",
  "matchMode.single_round": "Une seule manche",
  "lobby.house": "Règles maison",
  "lobby.more": "Plus d'options",
  "lobby.submit": "Créer la salle",
  "lobby.creating": "Création…",
  "lobby.recent": "Vos salles",
  "lobby.recent.none": "Aucune salle pour l'instant.",
  "lobby.flexMax": "UNO Flex se joue de 2 à 8 joueurs.",
  "opt.targetScore": "Score à atteindre",
  "opt.scoringMode": "Décompte",
  "opt.matchMode": "Partie",
  "opt.stacking": "Cumul des cartes +",
  "opt.stacking.off": "Non (officiel)",
  "opt.stacking.same_symbol": "Même carte seulement (+2 sur +2)",
  "opt.stacking.escalate": "Égale ou plus forte (+2 puis +4)",
  "opt.jumpIn": "Interception : jouer une carte identique hors de son tour",
  "opt.sevenZero": "7-0 : un 7 échange les mains, un 0 les fait tourner",
  "opt.drawUntilPlayable": "Piocher jusqu'à avoir une carte jouable",
  "opt.forcedPlay": "Jeu forcé : il faut jouer si on peut",
  "opt.noBluff": "Pas de bluff : cartes joker + seulement si elles sont permises",
  "opt.handSize": "Cartes distribuées",
  "opt.unoPenalty": "Pénalité pour UNO oublié",
  "opt.falseCatchPenalty": "Pénalité pour un faux contre-UNO",
  "opt.dealerRotation": "Donneur suivant",
  "opt.dealerRotation.left": "Le joueur à gauche",
  "opt.dealerRotation.winner": "Le gagnant de la manche",
  "opt.dealerRotation.random": "Au hasard",
  "opt.misplayPenalty": "Carte de pénalité pour un coup interdit",
  "opt.flipPairing": "Recto/verso des cartes Flip",
  "opt.flipPairing.canonical": "Comme le vrai jeu",
  "opt.flipPairing.random_seeded": "Mélangés",
  "opt.flexFlexSideWD4Restricted": "Le côté Flex du Super Joker +4 peut être contesté",

  "room.title": "Salle {code}",
  "room.invite": "Lien d'invitation",
  "room.invite.hint": "Envoyez ce lien à vos amis : ils choisissent un nom et s'installent.",
  "room.invite.copy": "Copier le lien d'invitation",
  "room.invite.copied": "Lien d'invitation copié : {link}",
  "room.waiting": "En attente des joueurs…",
  "room.players": "{n} joueurs",
  "room.seatOpen": "Place libre",
  "room.takeSeat": "S'asseoir ici",
  "room.watch": "Regarder en spectateur",
  "room.spectating": "Vous regardez la partie. Les spectateurs ne voient aucune main.",
  "room.start": "Commencer la partie",
  "room.fillBots": "Compléter avec des robots",
  "lobby.botLevel": "Niveau des robots",
  "room.joinAs": "Rejoindre la salle",
  "room.joined": "{name} est arrivé",
  "room.host": "hôte",
  "room.bot": "robot",
  "room.offline": "hors ligne",
  "room.settings": "Réglages",
  "room.notStarted": "La partie commence quand toutes les places sont prises.",

  "table.round": "Manche {n}",
  "table.target": "objectif {n}",
  "table.side.light": "Côté clair",
  "table.side.dark": "Côté sombre",
  "table.dir.cw": "Sens horaire",
  "table.dir.ccw": "Sens antihoraire",
  "table.color": "Couleur : {color}",
  "table.draw": "Pioche",
  "table.drawCount": "{n} cartes",
  "table.discard": "Défausse",
  "table.cards": "{n} cartes",
  "table.card": "1 carte",
  "table.yourTurn": "À vous",
  "table.yourTurn.play": "À vous : jouez une carte en surbrillance ou piochez.",
  "table.yourTurn.drawn": "Vous avez pioché {card} : jouez-la ou gardez-la.",
  "table.yourTurn.color": "Choisissez la couleur.",
  "table.yourTurn.challenge": "{who} a joué {card} : acceptez la pénalité ou contestez.",
  "table.yourTurn.stack": "{n} cartes vous arrivent : cumulez une carte + ou piochez-les.",
  "table.waitingFor": "En attente de {who}…",
  "table.jumpIn": "Interception ! Vous avez exactement la même carte : jouez-la vite.",
  "table.waitingColor": "{who} choisit une couleur…",
  "table.waitingChallenge": "{who} décide s'il conteste…",
  "table.spectator": "Spectateur",
  "table.you": "Vous",
  "table.hand": "Votre main",
  "table.playableCard": "{card}, jouable",
  "multi.play": "Jouer {n} cartes",
  "refuse.lastAction": "{card} ne peut pas être votre dernière carte : ces règles interdisent de finir sur une carte action. Piochez.",
  "refuse.lastWild": "{card} ne peut pas être votre dernière carte : ces règles interdisent de finir sur un joker. Piochez.",
  "multi.group": "Cartes choisies pour être jouées ensemble",
  "multi.order": "{cards} : la dernière donne la couleur.",
  "multi.more": "Choisissez d'autres {number} pour les jouer avec, ou jouez.",
  "multi.picked": "{card}, choisie en {n}",
  "multi.add": "{card}, peut s'ajouter",
  "multi.uno": "UNO !",
  "multi.uno.title": "Dire UNO avec ce coup : il vous laisse une carte (U)",
  "multi.notFirst": "{card} ne peut pas partir en premier : choisissez d'abord {first}, puis ajoutez {card}.",
  "table.sort": "Trier",
  "table.sort.title": "Trier votre main (S)",
  "table.sort.color": "Par couleur",
  "table.sort.number": "Par valeur",
  "table.sort.none": "Non triée",
  "table.pending": "+{n} en attente",
  "table.power": "Carte Pouvoir",
  "table.power.G": "Carte Pouvoir verte : peut jouer un côté Flex",
  "table.power.X": "Carte Pouvoir rouge : ne peut pas jouer de côté Flex",
  "table.uno.safe": "UNO !",
  "table.uno.vulnerable": "Une carte — sans UNO !",
  "table.backs": "Dos des cartes de {who}",
  "table.drawTopBack": "Dos de la carte du dessus de la pioche",
  "act.draw": "Piocher",
  "act.drawPending": "Prendre {n}",
  "act.pass": "Garder",
  "act.pass.title": "Garder la carte piochée et finir votre tour (P)",
  "act.uno": "UNO !",
  "act.catch": "Contre-UNO !",
  "act.catch.title": "{who} n'a pas dit UNO : faites-le piocher (C)",
  "act.accept": "Accepter",
  "act.challenge": "Contester",
  "act.next": "Manche suivante",
  "act.newMatch": "Nouvelle partie",
  "act.cancel": "Annuler",
  "pick.color": "Choisissez une couleur",
  "pick.color.flip": "Le Flip a découvert un joker : choisissez une couleur",
  "pick.side": "Jouer {card} de quel côté ?",
  "pick.side.regular": "Côté normal",
  "pick.side.flex": "Côté Flex",
  "pick.target": "Qui pioche ?",
  "pick.swap": "Échanger votre main avec qui ?",
  "challenge.title": "Contester ?",
  "challenge.text":
    "{who} a joué {card}. C'est permis seulement quand on n'a aucune carte de la couleur qui était en jeu. Acceptez et piochez {base}, ou contestez : si c'était un bluff, c'est {who} qui pioche ; sinon vous piochez {fail}.",
  "challenge.untilColor": "jusqu'à obtenir du {color}",
  "challenge.untilColorPlus": "jusqu'à obtenir du {color}, plus 2",
  "revealed.title": "La main de {who}, montrée à vous seul",
  "round.over": "Fin de la manche {n}",
  "round.winner": "{who} gagne la manche : {points} points.",
  "round.winner.you": "Vous gagnez la manche : {points} points !",
  "round.blocked": "Personne ne pouvait jouer : pas de points cette manche.",
  "round.hand": "Cartes restantes",
  "round.value": "Valeur",
  "round.total": "Total",
  "round.player": "Joueur",
  "match.over": "Partie terminée",
  "match.winner": "{who} gagne la partie !",
  "match.winner.you": "Vous gagnez la partie !",
  "match.scoreboard": "Tableau des scores",
  "match.target": "Le premier à {n} points",
  "match.targetLowest": "Jusqu'à ce que quelqu'un atteigne {n} : le plus petit total gagne",
  "match.waitNext": "En attente de la manche suivante…",
  "log.title": "Journal",
  "log.empty": "Rien pour l'instant.",
  "refuse.over": "La manche est finie.",
  "refuse.notYourTurn": "Ce n'est pas votre tour : {card} attend.",
  "refuse.decide": "Répondez d'abord à la question sur la table.",
  "refuse.drawn": "Vous avez pioché : jouez cette carte ou passez. {card} attend.",
  "refuse.card": "{card} ne va pas sur {top} (couleur {color}) : même couleur, même chiffre ou symbole, ou une carte joker.",
  "ready.next": "Prêt pour la manche suivante",
  "ready.rematch": "Revanche",
  "ready.waiting": "✓ Prêt · on attend {who}",
  "ready.done": "✓ Prêt",
  "ready.force": "Distribuer maintenant",
  "ready.forceMatch": "Commencer maintenant",
  "chat.title": "Discussion",
  "chat.send": "Envoyer",
  "chat.none": "Pas encore de message. Dites bonjour pendant que la table se remplit.",
  "chat.label": "Discuter avec la table",
  "chat.placeholder": "Écrivez à la table…",
  "chat.from": "💬 {who} : {text}",
  "chat.unread": "{n} messages non lus",

  "help.title": "Clavier",
  "help.arrows": "Passer d'une carte à l'autre",
  "help.home": "Première / dernière carte",
  "help.enter": "Jouer la carte choisie (une carte qui peut partir avec d'autres de son chiffre : la choisir)",
  "help.draw": "Piocher une carte",
  "help.pass": "Garder la carte piochée (passer), ou jouer les cartes choisies",
  "help.uno": "Dire UNO",
  "help.catch": "Contre-UNO : attraper un joueur qui n'a pas dit UNO",
  "help.colors": "Choisir une couleur (1–4, ou l'initiale anglaise : Red Yellow Green Blue ; pinK Teal Orange Violet)",
  "help.challenge": "Accepter / contester une carte joker +",
  "help.sort": "Trier votre main",
  "help.log": "Afficher ou masquer le journal",
  "help.next": "Manche suivante (quand elle est finie)",
  "help.escape": "Fermer une fenêtre",
  "help.help": "Cette aide",

  "color.R": "Rouge",
  "color.Y": "Jaune",
  "color.G": "Vert",
  "color.B": "Bleu",
  "color.Pk": "Rose",
  "color.Tl": "Turquoise",
  "color.Or": "Orange",
  "color.Pu": "Violet",

  "card.number": "{n} {color}",
  "card.flipIcon": "{name} (icône flip)",
  "card.flexColor": "{name} (flex {flex})",
  "card.S": "Passe ton tour {color}",
  "card.R": "Inversion {color}",
  "card.D2": "+2 {color}",
  "card.D1": "+1 {color}",
  "card.D5": "+5 {color}",
  "card.F": "Flip {color}",
  "card.SE": "Passe pour tous {color}",
  "card.FS": "Passe Flex {color}",
  "card.FR": "Inversion Flex {color}",
  "card.FD2": "+2 Flex {color}",
  "card.W": "Joker",
  "card.W4": "Super Joker +4",
  "card.W2": "Joker +2",
  "card.DW": "Joker",
  "card.WDC": "Joker Pioche Couleur",
  "card.WAF": "Joker Tous Flip",
  "card.WAD": "Joker Flex Tous Piochent",
  "card.WTD": "Joker Flex Cible +2",
  "card.FW4": "Super Joker Flex +4",
  "card.flexSide.FS": "passe pour tous",
  "card.flexSide.FR": "inversion puis passe",
  "card.flexSide.FD2": "chaque adversaire pioche 1",
  "card.flexSide.WAD": "chaque adversaire pioche 2",
  "card.flexSide.WTD": "un joueur choisi pioche 2",
  "card.flexSide.FW4": "un joueur choisi pioche 4, sans contestation",
  "card.flexSide.number": "se joue sur le {flex}",
  "card.regularSide.number": "se joue sur le {color}",
  "card.regularSide.FS": "Passe ton tour",
  "card.regularSide.FR": "Inversion",
  "card.regularSide.FD2": "+2",
  "card.regularSide.WAD": "un simple Joker",
  "card.regularSide.WTD": "un simple Joker",
  "card.regularSide.FW4": "Super Joker +4 (peut être contesté)",

  "ev.RoundStarted": "La manche {round} commence ; {dealer} distribue.",
  "ev.RoundStarted.you": "La manche {round} commence ; vous distribuez.",
  "ev.CardTurned.start": "La première carte est {card}.",
  "ev.CardTurned.ignored": "{card} est retournée puis ignorée ; on en retourne une autre.",
  "ev.CardTurned.returned": "{card} retourne dans la pioche ; on en retourne une autre.",
  "ev.Played": "{who} a joué {card}",
  "ev.Played.you": "Vous avez joué {card}",
  "ev.Played.color": " et choisi {color}",
  "ev.Played.flex": " côté Flex",
  "ev.Played.plainWild": " sur sa face normale, comme un simple Joker (personne ne pioche)",
  "ev.Played.target": ", en visant {target}",
  "ev.Played.jumpIn": " (interception !)",
  "ev.Played.multi": "{who} a joué {cards} d'un coup",
  "ev.Played.multi.you": "Vous avez joué {cards} d'un coup",
  "ev.Drew.one": "{who} a pioché une carte",
  "ev.Drew.many": "{who} a pioché {n} cartes",
  "ev.Drew.one.you": "Vous avez pioché {cards}",
  "ev.Drew.many.you": "Vous avez pioché {n} cartes : {cards}",
  "ev.Drew.none": "{who} a voulu piocher, mais il ne reste aucune carte",
  "ev.Drew.none.you": "Vous avez voulu piocher, mais il ne reste aucune carte",
  "ev.Drew.challenge": " après la contestation",
  "ev.Drew.catch": " pour avoir oublié UNO",
  "ev.Drew.stack": " (cartes + cumulées)",
  "ev.Drew.misplay": " pour un coup interdit",
  "ev.Drew.false_catch": " pour un faux contre-UNO",
  "ev.Drew.backs": " (dos : {backs})",
  "ev.Passed": "{who} garde la carte.",
  "ev.Passed.you": "Vous gardez la carte.",
  "ev.ColorChosen": "{who} a choisi {color}.",
  "ev.ColorChosen.you": "Vous avez choisi {color}.",
  "ev.Accepted": "{who} accepte la pénalité.",
  "ev.Accepted.you": "Vous acceptez la pénalité.",
  "ev.Challenged.success": "{who} a contesté {offender} : c'était un bluff !",
  "ev.Challenged.fail": "{who} a contesté {offender}, mais le coup était permis.",
  "ev.Challenged.success.you": "Vous avez contesté {offender} : c'était un bluff !",
  "ev.Challenged.fail.you": "Vous avez contesté {offender}, mais le coup était permis.",
  "ev.Challenged.revealed": " Sa main : {cards}.",
  "ev.UnoCalled": "{who} a dit UNO !",
  "ev.UnoCalled.you": "Vous avez dit UNO !",
  "ev.Caught.success": "{who} a pris {target} sans UNO !",
  "ev.Caught.fail": "{who} a voulu prendre {target} sans UNO, en vain.",
  "ev.Caught.success.you": "Vous avez pris {target} sans UNO !",
  "ev.Caught.fail.you": "Vous avez voulu prendre {target} sans UNO, en vain.",
  "ev.Skipped": "{who} passe son tour.",
  "ev.Skipped.you": "Vous passez votre tour.",
  "ev.Reversed": "Le sens change : {dir}.",
  "ev.Flipped.dark": "Tout passe du côté sombre ! La carte visible est maintenant {card}.",
  "ev.Flipped.light": "Tout revient du côté clair ! La carte visible est maintenant {card}.",
  "ev.Reshuffled": "La défausse ({n} cartes) est mélangée pour refaire la pioche.",
  "ev.PowersChanged": "Cartes Pouvoir : {list}.",
  "ev.PowersChanged.all": "Toutes les cartes Pouvoir redeviennent vertes.",
  "ev.HandsSwapped.two": "{a} et {b} échangent leurs mains.",
  "ev.HandsSwapped.all": "Chacun passe sa main au suivant.",
  "ev.Misplayed": "{who} a voulu jouer {card}, ce qui est interdit.",
  "ev.Eliminated": "{who} a trop de cartes et quitte la partie ({n} cartes vont sous la pioche).",
  "ev.Eliminated.you": "Vous avez trop de cartes et quittez la partie ({n} cartes vont sous la pioche).",
  "ev.Misplayed.you": "Vous avez voulu jouer {card}, ce qui est interdit.",
  "ev.RoundEnded": "{who} gagne la manche et marque {points} points.",
  "ev.RoundEnded.you": "Vous gagnez la manche et marquez {points} points.",
  "ev.RoundEnded.lowest": "{who} a fini ; les autres ajoutent leurs propres cartes.",
  "ev.RoundEnded.none": "La manche est bloquée : personne ne marque.",
  "ev.MatchEnded": "{who} gagne la partie !",
  "word.you": "vous",
  "word.and": "et",
  "word.or": "ou",
  "word.green": "verte",
  "word.red": "rouge",
};

Object.assign(EN, EN_UX, EN_HOUSE);
Object.assign(FR, FR_UX, FR_HOUSE);
const DICTS = { en: EN, fr: FR };

function initialLang() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && LANGS.includes(saved)) return saved;
  } catch {
    /* storage disabled: fall through */
  }
  const nav = (globalThis.navigator?.languages?.[0] || globalThis.navigator?.language || "en").toLowerCase();
  return nav.startsWith("fr") ? "fr" : "en";
}

let current = initialLang();
const listeners = new Set();

export function lang() {
  return current;
}

export function setLang(code) {
  if (!LANGS.includes(code)) throw new Error(`unknown language ${code}`);
  current = code;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    /* ignore */
  }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call `fn(code)` whenever the language changes. */
export function onLangChange(fn) {
  listeners.add(fn);
}

/** The text for `key` with `{name}` placeholders replaced from `params`. */
export function t(key, params = {}) {
  const dict = DICTS[current];
  let s = dict[key] ?? EN[key];
  if (s === undefined) {
    console.warn(`i18n: missing key ${key}`);
    return key;
  }
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Keys present in one language and not in the other (for the tests). */
export function missingKeys() {
  const en = Object.keys(EN);
  const fr = Object.keys(FR);
  return { fr: en.filter((k) => !(k in FR)), en: fr.filter((k) => !(k in EN)) };
}

/** True when `key` exists (used for optional sentence parts). */
export function has(key) {
  return key in EN;
}

export function colorName(code) {
  return t(`color.${code}`);
}

const COLOR_RE = /^(Pk|Tl|Or|Pu|R|Y|G|B)(.*)$/;

/** Name of one face token (e.g. "R5", "PkSE", "R5~G", "R4*", "WDC"). */
export function faceName(token) {
  const key = `card.${token}`;
  if (key in EN) return t(key);
  const m = COLOR_RE.exec(token);
  if (!m) return token;
  const [, color, rest] = m;
  const colour = colorName(color);
  const num = /^(\d)(\*)?(?:~(Pk|Tl|Or|Pu|R|Y|G|B))?$/.exec(rest);
  if (num) {
    let name = t("card.number", { color: colour, n: num[1] });
    if (num[2]) name = t("card.flipIcon", { name });
    if (num[3]) name = t("card.flexColor", { name, flex: colorName(num[3]) });
    return name;
  }
  const body = rest.split("~")[0];
  const bodyKey = `card.${body}`;
  if (bodyKey in EN) return t(bodyKey, { color: colour });
  return token;
}

/**
 * The name of the visible face of a card: a Flip card "R3|WDC" shows its
 * light face on the light side and its dark face on the dark side.
 */
export function cardName(notation, side = "light") {
  if (notation == null) return "";
  const parts = String(notation).split("|");
  const token = parts.length === 2 ? parts[side === "dark" ? 1 : 0] : parts[0];
  return faceName(token);
}

/** "a, b and c" in the current language. */
export function listText(items, word = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t(`word.${word}`)} ${items[items.length - 1]}`;
}

/** Which side a face token belongs to, for naming cards inside events. */
function sideOfFace(token) {
  const m = COLOR_RE.exec(token);
  if (m) return ["Pk", "Tl", "Or", "Pu"].includes(m[1]) ? "dark" : "light";
  return token === "DW" || token === "WDC" ? "dark" : "light";
}

/**
 * One history event (an object from Observation.to_dict()["history"]) as a
 * sentence. `ctx`: {me: seat|null, name(seat) -> display name, side: the side
 * active when the event happened, variant}. Returns null for events that are
 * not worth a line.
 */
export function describeEvent(ev, ctx) {
  const me = ctx.me;
  const name = (seat) => ctx.name(seat);
  const you = (seat) => me !== null && me !== undefined && seat === me;
  const side = ctx.side ?? "light";
  const card = (c) => cardName(c, side);
  const pick = (base, seat) => (you(seat) && has(`${base}.you`) ? `${base}.you` : base);
  switch (ev.type) {
    case "RoundStarted":
      return t(pick("ev.RoundStarted", ev.dealer), { round: ev.round, dealer: name(ev.dealer) });
    case "CardTurned":
      return t(`ev.CardTurned.${ev.reason}`, { card: cardName(ev.card, "light") });
    case "Played": {
      // several cards of one number in one play (multiPlay): one sentence
      if (ev.cards && ev.cards.length > 1) {
        return `${t(pick("ev.Played.multi", ev.seat), { who: name(ev.seat), cards: listText(ev.cards.map((c) => card(c))) })}.`;
      }
      let s = t(pick("ev.Played", ev.seat), { who: name(ev.seat), card: card(ev.card) });
      if (ev.flex) s += t("ev.Played.flex");
      // a Flex wild draw card on its regular side is a plain Wild: say why nobody draws
      else if (ev.card === "WTD" || ev.card === "WAD") s += t("ev.Played.plainWild");
      if (ev.color) s += t("ev.Played.color", { color: colorName(ev.color) });
      if (ev.target !== null && ev.target !== undefined) {
        s += t("ev.Played.target", { target: you(ev.target) ? t("word.you") : name(ev.target) });
      }
      if (ev.jump_in) s += t("ev.Played.jumpIn");
      return `${s}.`;
    }
    case "Drew": {
      let s;
      if (ev.count === 0) {
        s = t(pick("ev.Drew.none", ev.seat), { who: name(ev.seat) });
      } else if (you(ev.seat) && ev.cards) {
        const cards = listText(ev.cards.map((c) => card(c)));
        s = t(ev.count === 1 ? "ev.Drew.one.you" : "ev.Drew.many.you", { n: ev.count, cards });
      } else {
        s = t(ev.count === 1 ? "ev.Drew.one" : "ev.Drew.many", { who: name(ev.seat), n: ev.count });
      }
      if (ev.count > 0 && ev.reason && ev.reason !== "draw" && has(`ev.Drew.${ev.reason}`)) {
        s += t(`ev.Drew.${ev.reason}`);
      }
      return `${s}.`;
    }
    case "Passed":
      return t(pick("ev.Passed", ev.seat), { who: name(ev.seat) });
    case "ColorChosen":
      return t(pick("ev.ColorChosen", ev.seat), { who: name(ev.seat), color: colorName(ev.color) });
    case "Accepted":
      return t(pick("ev.Accepted", ev.seat), { who: name(ev.seat) });
    case "Challenged": {
      const base = `ev.Challenged.${ev.success ? "success" : "fail"}`;
      let s = t(pick(base, ev.seat), { who: name(ev.seat), offender: you(ev.offender) ? t("word.you") : name(ev.offender) });
      if (ev.revealed && you(ev.seat)) {
        s += t("ev.Challenged.revealed", { cards: listText(ev.revealed.map((c) => card(c))) || "—" });
      }
      return s;
    }
    case "UnoCalled":
      return t(pick("ev.UnoCalled", ev.seat), { who: name(ev.seat) });
    case "Caught": {
      const base = `ev.Caught.${ev.success ? "success" : "fail"}`;
      return t(pick(base, ev.seat), { who: name(ev.seat), target: you(ev.target) ? t("word.you") : name(ev.target) });
    }
    case "Skipped":
      return t(pick("ev.Skipped", ev.seat), { who: name(ev.seat) });
    case "Reversed":
      return t("ev.Reversed", { dir: t(ev.direction === 1 ? "table.dir.cw" : "table.dir.ccw").toLowerCase() });
    case "Flipped": {
      const newSide = ev.side === 1 ? "dark" : "light";
      return t(`ev.Flipped.${newSide}`, { card: cardName(ev.top, newSide) });
    }
    case "Reshuffled":
      return t("ev.Reshuffled", { n: ev.count });
    case "PowersChanged": {
      if (ev.powers.every(Boolean)) return t("ev.PowersChanged.all");
      const list = ev.powers.map((p, i) => `${you(i) ? t("table.you") : name(i)} ${p ? "✓" : "✗"}`);
      return t("ev.PowersChanged", { list: list.join(", ") });
    }
    case "HandsSwapped": {
      if (ev.seats.length === 2) {
        const nm = (s) => (you(s) ? t("table.you") : name(s));
        return t("ev.HandsSwapped.two", { a: nm(ev.seats[0]), b: nm(ev.seats[1]) });
      }
      return t("ev.HandsSwapped.all");
    }
    case "Misplayed":
      return t(pick("ev.Misplayed", ev.seat), { who: name(ev.seat), card: card(ev.card) });
    case "Eliminated":
      return t(pick("ev.Eliminated", ev.seat), { who: name(ev.seat), n: ev.count });
    case "RoundEnded": {
      if (ev.winner === null || ev.winner === undefined) return t("ev.RoundEnded.none");
      if (ctx.scoringMode === "lowest") return t("ev.RoundEnded.lowest", { who: you(ev.winner) ? t("table.you") : name(ev.winner) });
      return t(pick("ev.RoundEnded", ev.winner), { who: name(ev.winner), points: ev.points });
    }
    case "MatchEnded":
      return t("ev.MatchEnded", { who: listText(ev.winners.map((s) => (you(s) ? t("table.you") : name(s)))) });
    default:
      return null;
  }
}

export { sideOfFace };

/** Fill [data-i18n] text and [data-i18n-attr="attr:key,attr:key"] attributes. */
export function translatePage(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(",")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}
