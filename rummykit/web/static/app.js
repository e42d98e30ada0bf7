// The rummykit table: a page over the JSON API of `rummykit serve` (docs/web.md). No external assets.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
let catalogue = null; // {variants: [...], bots: [...]}
let table = null; // the state last received
let viewSeat = null; // the seat the page shows (a person's seat)
let tokens = {}; // seat -> its token: the secret that shows the seat's hand and plays for it
let owner = null; // the table creator's token: steps a replay
let shownResults = 0; // finished hands whose settlement has been shown
let selected = []; // indexes into the hand of the selected cards
let shownHand = ""; // the hand last shown (a selection is cleared when it changes)
let mine = new Set(); // the seats this page joined: its own. Other tokens it holds are seats it may invite to
// (or play at one screen) until somebody else takes them.
let inviteTokens = {}; // seat -> token of a seat the creator invites somebody to (not played at this screen)
let invites = null; // {id, seats: {seat: join link}, onlooker}: the links the server gave when the table was made
let live = 0; // the number of the live view (events stream) open: a newer one ends the older
let liveAbort = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function api(method, path, body, token) {
  document.body.dataset.busy = "1"; // a request is under way (tests wait for it to end)
  try {
    return await request(method, path, body, token);
  } finally {
    delete document.body.dataset.busy;
  }
}

async function request(method, path, body, token) {
  const options = { method, headers: {} };
  if (token) options.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// -- cards --

function cardNode(text, means) {
  const [face, meant] = text.split("=");
  means = means || meant || null;
  if (face === "JK") {
    const node = el("span", { class: "card joker", "data-card": text, title: "joker" }, el("span", { text: "★" }),
      el("span", { class: "suit", text: "JK" }));
    if (means) markWild(node, means);
    return node;
  }
  const rank = face.slice(0, -1) === "T" ? "10" : face.slice(0, -1);
  const suit = face.slice(-1);
  const red = suit === "H" || suit === "D";
  const node = el("span", { class: "card" + (red ? " red" : ""), "data-card": face },
    el("span", { text: rank }), el("span", { class: "suit", text: SUITS[suit] || suit }));
  if (means) markWild(node, means);
  return node;
}

function markWild(node, means) {
  node.classList.add("wild");
  node.append(el("span", { class: "means", text: "= " + prettyCard(means) }));
  node.title = "wild: stands for " + prettyCard(means);
}

function count(number, noun) {
  return `${number} ${noun}${number === 1 ? "" : "s"}`;
}

// Action texts (the API's, as records keep them) number the table melds from 0; people count from 1. What
// the page shows reads "layoff 7C on 1" for the API's "layoff 7C on 0", and "meld 1" for table meld 0.
function forPeople(text) {
  // The API counts table melds and seats from 0; people count them from 1, as the page shows them.
  return String(text).replace(/\b(on|meld|[Ss]eat) (\d+)\b/g, (_, word, number) => `${word} ${Number(number) + 1}`);
}

const RANKS = "A23456789TJQK";
const SUIT_ORDER = "CDHS";

// A card's place in a card player's order: suit by suit (clubs, diamonds, hearts, spades), rank by rank
// within a suit, jokers last. null for a token that is no card.
function cardOrder(token) {
  const face = token.split("=")[0];
  if (face === "JK") return 52;
  const rank = RANKS.indexOf(face.slice(0, -1));
  const suit = SUIT_ORDER.indexOf(face.slice(-1));
  return face.length === 2 && rank >= 0 && suit >= 0 ? suit * 13 + rank : null;
}

// The legal moves as the terminal lists them: each verb's moves together (the verbs in the order the game
// lists them first), and within a verb by their cards, suit by suit then rank, then by table meld.
function inCardOrder(texts) {
  const unique = [...new Set(texts)];
  const keyOf = (text) => {
    const tokens = text.split(" ");
    const verb = [];
    const cards = [];
    let target = -1;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i] === "on" && i === tokens.length - 2 && (cards.length || verb.length)) {
        target = Number(tokens[i + 1]);
        break;
      }
      if (tokens[i] === "|") continue;
      const order = cards.length || verb.length ? cardOrder(tokens[i]) : null;
      if (order === null && !cards.length) verb.push(tokens[i]);
      else cards.push(order === null ? 99 : order);
    }
    return { verb: verb.join(" "), cards, target };
  };
  const keys = new Map(unique.map((text) => [text, keyOf(text)]));
  const verbs = [];
  for (const key of keys.values()) if (!verbs.includes(key.verb)) verbs.push(key.verb);
  return unique.slice().sort((a, b) => {
    const x = keys.get(a);
    const y = keys.get(b);
    if (x.verb !== y.verb) return verbs.indexOf(x.verb) - verbs.indexOf(y.verb);
    for (let i = 0; i < Math.min(x.cards.length, y.cards.length); i++) {
      if (x.cards[i] !== y.cards[i]) return x.cards[i] - y.cards[i];
    }
    if (x.cards.length !== y.cards.length) return x.cards.length - y.cards.length;
    return x.target - y.target;
  });
}

function prettyCard(text) {
  if (text === "JK") return "joker";
  const rank = text.slice(0, -1) === "T" ? "10" : text.slice(0, -1);
  return rank + (SUITS[text.slice(-1)] || text.slice(-1));
}

function cardsOf(entry, state) {
  const means = entry.stands_for || [];
  return entry.cards.map((c, i) => {
    const node = cardNode(c, means[i]);
    const by = entry.played_by ? entry.played_by[i] : entry.owner;
    if (state && by !== entry.owner) {
      node.classList.add("laid-off");
      node.title = `laid off by ${name(state, by)}`;
    }
    return node;
  });
}

// -- setup --

async function loadCatalogue() {
  catalogue = await api("GET", "/api/variants");
  const select = $("variant");
  for (const v of catalogue.variants) select.append(el("option", { value: v.name, text: `${v.title} (${v.name})` }));
  select.value = catalogue.variants.some((v) => v.name === "gin") ? "gin" : catalogue.variants[0].name;
  select.addEventListener("change", variantChosen);
  $("players").addEventListener("change", seatsChosen);
  variantChosen();
}

function currentVariant() {
  return catalogue.variants.find((v) => v.name === $("variant").value);
}

function variantChosen() {
  const v = currentVariant();
  $("variant-summary").textContent = v.summary;
  const box = $("house-rules");
  box.replaceChildren(el("legend", { text: "House rules" }));
  if (!v.house_rules.length) box.append(el("span", { text: "none offered" }));
  for (const rule of v.house_rules) {
    box.append(el("label", { title: rule.summary },
      el("input", { type: "checkbox", value: rule.name, "data-rule": rule.name }), ` ${rule.name}: ${rule.summary}`));
  }
  const players = $("players");
  players.min = v.min_players;
  players.max = v.max_players;
  players.value = Math.min(Math.max(Number(players.value), v.min_players), v.max_players);
  seatsChosen();
}

function seatsChosen() {
  const count = Number($("players").value);
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const select = el("select", { id: `seat-${seat}` }, el("option", { value: "", text: "a person" }));
    for (const bot of catalogue.bots) select.append(el("option", { value: bot, text: `${bot} bot` }));
    select.value = seat === 0 ? "" : (catalogue.bots.includes("greedy") ? "greedy" : catalogue.bots[0]);
    box.append(el("label", { text: `Seat ${seat + 1}: ` }, select));
  }
}

function yourName() {
  const name = $("your-name").value.trim();
  if (name) localStorage.setItem("rummykit-name", name);
  return name;
}

async function start() {
  const count = Number($("players").value);
  const body = {
    variant: $("variant").value,
    house_rules: [...document.querySelectorAll("#house-rules input:checked")].map((i) => i.value),
    players: count,
    bots: [...Array(count).keys()].map((s) => $(`seat-${s}`).value || null),
    listed: $("listed").checked,
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const first = body.bots.indexOf(null);
  // The creator takes the first person seat as the table is made, so nobody in the lobby takes it first.
  if (first >= 0) body.name = yourName() || `Player ${first + 1}`;
  const oneScreen = $("one-screen").checked;
  try {
    const state = await api("POST", "/api/tables", body);
    owner = state.owner;
    invites = { id: state.id, ...state.links };
    tokens = {};
    inviteTokens = {};
    mine = new Set(first >= 0 ? [first] : []);
    for (const [seat, token] of Object.entries(state.tokens)) {
      // Played at this screen (the creator's seat, or every person seat when they all sit here), or invited.
      if (Number(seat) === first || oneScreen) tokens[Number(seat)] = token;
      else inviteTokens[Number(seat)] = token;
    }
    await open(state);
  } catch (error) {
    alert(error.message);
  }
}

async function startReplay() {
  let text = $("record-text").value.trim();
  const file = $("record-file").files[0];
  if (!text && file) text = await file.text();
  if (!text) return alert("Choose a record file or paste a record.");
  try {
    const state = await api("POST", "/api/replays", { record: text });
    tokens = {};
    inviteTokens = {};
    mine = new Set();
    owner = state.owner;
    open(state);
  } catch (error) {
    alert(error.message);
  }
}

// -- the table --

function humanSeats(state) {
  return state.bots.map((b, s) => (b === null ? s : null)).filter((s) => s !== null);
}

// The page's address keeps the table and the tokens it holds after "#" (never sent to the server):
// #t=ID&owner=TOKEN&seat0=TOKEN&seat2=TOKEN. A link with only some seats' tokens is a way to join them.
function linkFor(id) {
  const params = new URLSearchParams({ t: id });
  if (owner) params.set("owner", owner);
  for (const [seat, token] of Object.entries(tokens)) params.set(`seat${seat}`, token);
  for (const [seat, token] of Object.entries(inviteTokens)) params.set(`invite${seat}`, token);
  return params.toString();
}

function readLink(hash) {
  const params = new URLSearchParams(hash);
  const found = {};
  const invited = {};
  for (const [key, value] of params) {
    if (/^seat\d+$/.test(key)) found[Number(key.slice(4))] = value;
    else if (/^invite\d+$/.test(key)) invited[Number(key.slice(6))] = value;
  }
  return { id: params.get("t"), owner: params.get("owner"), tokens: found, invites: invited };
}

// The seats this page holds the tokens of, its own first.
function heldSeats(state) {
  const held = humanSeats(state).filter((s) => s in tokens);
  return [...held.filter((s) => mine.has(s)), ...held.filter((s) => !mine.has(s))];
}

function setAddress(id) {
  const url = new URL(location.href);
  url.hash = linkFor(id);
  history.replaceState(null, "", url); // the "#" part only: it never reaches the server
}

async function open(state, seen = 0) {
  shownResults = seen;
  selected = [];
  viewSeat = state.replay ? null : seatToShow(state);
  if (viewSeat !== state.seat && viewSeat !== null) state = await api("GET", `/api/tables/${state.id}`, undefined, tokens[viewSeat]);
  setAddress(state.id);
  $("setup").hidden = true;
  $("join-box").hidden = true;
  $("table").hidden = false;
  $("new-game").hidden = false;
  show(state);
  listen();
}

async function refresh() {
  show(await api("GET", `/api/tables/${table.id}`, undefined, viewSeat === null ? undefined : tokens[viewSeat]));
}

// -- the live view: the table's events, as the seat shown (or an onlooker) sees them --

function stopListening() {
  live += 1;
  if (liveAbort) liveAbort.abort();
  liveAbort = null;
  delete document.body.dataset.live;
}

// One stream of server-sent events for the seat shown, read with fetch() (an EventSource cannot send the
// seat's token). When it drops it is opened again after a short wait; its first event is the table as it is
// now, so the page catches up with what it missed.
function listen() {
  stopListening();
  if (!table || table.replay) return;
  const number = live;
  const id = table.id;
  const token = viewSeat === null ? undefined : tokens[viewSeat];
  (async () => {
    let wait = 250;
    while (number === live) {
      const controller = new AbortController(); // one per connection: liveAbort.abort() ends this one
      liveAbort = controller;
      try {
        const response = await fetch(`/api/tables/${id}/events`,
          { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: controller.signal, cache: "no-store" });
        if ([403, 404, 410].includes(response.status)) {
          const data = await response.json().catch(() => ({}));
          if (number !== live) return;
          if (response.status === 403 && token && !mine.has(viewSeat)) {
            tokenRefused(id); // somebody took that seat (its token changed): show another
          } else {
            liveEnded(data.error || `HTTP ${response.status}`);
          }
          return;
        }
        if (!response.ok) {
          // Busy (too many live views) or a table closed for now: say so, and try again below.
          const data = await response.json().catch(() => ({}));
          if (number === live) showError(data.error || `HTTP ${response.status}`);
          throw new Error(`HTTP ${response.status}`);
        }
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        let first = true; // the first state of a connection is the table as it is now: taken as it comes
        wait = 250;
        document.body.dataset.live = "1";
        for (;;) {
          const { value, done } = await reader.read();
          if (done || number !== live) break;
          buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0 && number === live) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (liveEvent(block, number, first)) first = false;
          }
        }
      } catch (error) {
        // dropped (or stopped): tried again below
      }
      if (number !== live) return;
      if (document.body.dataset.live) showError("The connection to the server was lost: reconnecting…");
      delete document.body.dataset.live;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 4000);
    }
  })();
}

// True when the block was a state.
function liveEvent(block, number, first) {
  let event = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue; // ": still here"
    const at = line.indexOf(":");
    const key = at < 0 ? line : line.slice(0, at);
    let value = at < 0 ? "" : line.slice(at + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (key === "event") event = value;
    else if (key === "data") data.push(value);
  }
  if (!data.length) return false;
  let payload;
  try {
    payload = JSON.parse(data.join("\n"));
  } catch (error) {
    return false;
  }
  if (event === "state" && table && payload.id === table.id && number === live) {
    if (first && /^The (connection to the server was lost|server cannot be reached)/.test($("error").textContent)) {
      showError(""); // back
    }
    show(payload, first); // versions count from the server's start: a new connection may follow a restart
    return true;
  }
  if (event === "gone" && number === live) liveGone(payload.error, payload.reason);
  return false;
}

// The live view ended: the table was dropped, or the token of the seat shown was replaced (somebody took
// that seat with its join link), when the page shows another seat.
async function liveGone(why, reason) {
  // reason: "dropped" (the table), "token" (somebody took the seat shown with its link), "broken" (a move
  // could not be stored: the table is closed until the server starts again).
  if (reason === "token" && viewSeat !== null && !mine.has(viewSeat)) return tokenRefused(table.id);
  liveEnded(why);
}

// The token of the seat shown (not the page's own) no longer works: somebody joined that seat.
function tokenRefused(id) {
  delete tokens[viewSeat];
  setAddress(id);
  showAnotherSeat(table);
}

// Of the seats this page holds, the one whose turn it is, else the first (null: none, an onlooker's view).
function seatToShow(state) {
  const held = state ? heldSeats(state) : [];
  return held.includes(state && state.current_player) ? state.current_player : held[0] ?? null;
}

// The seat shown is no longer this page's: show another, wiping what the old one's view showed. The live view's
// first event shows the table as the new seat sees it.
function showAnotherSeat(state) {
  viewSeat = seatToShow(state);
  for (const id of ["hand", "arrangement", "actions"]) $(id).replaceChildren();
  listen();
}

function liveEnded(why) {
  stopListening();
  showError(`This table is no longer played: ${why}`);
}

function name(state, seat) {
  return seat === viewSeat && state.names[seat] !== "You" ? `${state.names[seat]} (you)` : state.names[seat];
}

// Tokens of seats that somebody else took are dropped: their join links no longer work, and the page no
// longer plays them. True when the seat shown was one of them (the page then shows another).
function dropTaken(state) {
  if (state.replay || !state.taken) return false;
  // A seat is taken by a person who joined it, or by a bot it was given to.
  const invited = Object.keys(inviteTokens).map(Number).filter((s) => state.taken[s]);
  const gone = Object.keys(tokens).map(Number).filter((s) => state.taken[s] && !mine.has(s));
  for (const seat of invited) delete inviteTokens[seat];
  for (const seat of gone) delete tokens[seat];
  if (invited.length || gone.length) setAddress(state.id);
  if (!gone.includes(viewSeat)) return false;
  showAnotherSeat(state);
  return true;
}

function show(state, fresh = false) {
  // A move's answer and the live view come on separate connections: an older state never replaces a newer.
  if (!fresh && table && table.id === state.id && state.seat === table.seat && state.epoch === table.epoch &&
      state.version < table.version) return;
  if (dropTaken(state)) return;
  const hand = JSON.stringify((state.observation || {}).hand || []);
  if (hand !== shownHand) selected = [];
  shownHand = hand;
  table = state;
  if (viewSeat === null) delete document.body.dataset.seat;
  else document.body.dataset.seat = viewSeat; // the seat shown (tests wait for it)
  const obs = state.observation;
  // Partnership Gin plays each round at two tables: the deal is named by its round and table.
  const where = obs.round && obs.table_seats ? `round ${obs.round}, table ${(obs.tables_done || []).length + 1}`
    : `deal ${obs.deal}`;
  $("title").textContent = `${state.title}${state.house_rules.length ? " + " + state.house_rules.join(", ") : ""}` +
    ` — ${where}${state.seed === null ? "" : `, seed ${state.seed}`}`;
  // The record holds the seed, from which every hidden card follows: it is given once the game is over.
  $("record-link").hidden = !(state.is_over || state.replay);
  $("record-link").href = `/api/tables/${state.id}/record`;
  showOpponents(state);
  showPiles(state);
  showMelds(state);
  showHand(state);
  showActions(state);
  showScores(state);
  showLog(state);
  showStatus(state);
  showInvite(state);
  const replay = state.replay;
  $("replay-controls").hidden = !replay;
  if (replay) $("replay-step").textContent = `move ${replay.step} of ${replay.total}`;
  if (!replay && state.results.length > shownResults) showSettlement(state);
}

function showOpponents(state) {
  const obs = state.observation;
  const box = $("opponents");
  box.replaceChildren();
  state.names.forEach((_, seat) => {
    if (seat === viewSeat) return;
    const acting = state.current_player === seat;
    const node = el("div", { class: "seat" + (acting ? " acting" : ""), "data-seat": seat },
      el("div", { text: `${name(state, seat)}${state.bots[seat] && !state.names[seat].toLowerCase().includes(state.bots[seat]) ? ` (${state.bots[seat]} bot)` : ""} — ` +
        `${count(obs.hand_sizes[seat], "card")}${obs.dealer === seat ? ", dealer" : ""}` }));
    if (state.taken && !state.taken[seat] && !state.replay) {
      node.append(el("div", { class: "waiting", text: seat in tokens
        ? "nobody joined yet: played at this screen until somebody does (Invite)"
        : "free seat: waiting for a player to join" }));
    }
    const known = state.hands ? state.hands[seat] : (obs.known[String(seat)] || []);
    if (known.length) {
      node.append(el("div", { text: state.hands ? "" : "picked up:" }), ...known.map((c) => cardNode(c)));
    }
    box.append(node);
  });
}

function showPiles(state) {
  const obs = state.observation;
  const box = $("piles");
  box.replaceChildren();
  const stock = el("div", { class: "pile" }, el("div", { text: `Stock: ${obs.stock_size}` }));
  if (obs.stock_size) stock.append(el("span", { class: "card back" }));
  const pile = el("div", { class: "pile", id: "discard-pile" }, el("div", { text: `Discard pile: ${obs.discard_size}` }));
  if (obs.discard) pile.append(...obs.discard.map((c) => cardNode(c)));
  else if (obs.discard_top) pile.append(cardNode(obs.discard_top));
  else if (obs.discard_size) pile.append(el("span", { class: "card back" }));
  box.append(stock, pile);
  if (obs.must_use) box.append(el("div", { text: `You must use ${prettyCard(obs.must_use)} this turn` }));
  if (obs.offer) {
    const offer = obs.offer;
    const card = offer.card ? prettyCard(offer.card) : "a card";
    box.append(el("div", { id: "offer", text: `${name(state, offer.from)} offers ${card}` +
      (offer.to !== null && offer.to !== undefined ? ` to ${name(state, offer.to)}` : "") }));
  }
  for (const [zone, seats] of Object.entries(obs.zones || {})) {
    seats.forEach((held, seat) => {
      if (!held.count) return;
      const hidden = held.count - held.cards.length;
      box.append(el("div", { class: "zone", "data-zone": zone },
        el("div", { text: `${name(state, seat)}, ${zone}: ${held.count}` }), ...held.cards.map((c) => cardNode(c)),
        ...Array.from({ length: hidden }, () => el("span", { class: "card back" }))));
    });
  }
  for (const shown of obs.shown || []) {  // cards the game shows this seat besides hands, pile and table
    box.append(el("div", {}, el("div", { text: `${shown.label}:` }), ...shown.cards.map((c) => cardNode(c))));
  }
}

function showMelds(state) {
  const obs = state.observation;
  const box = $("melds");
  box.replaceChildren();
  if (!obs.table.length) return;
  const owners = [...new Set(obs.table.map((m) => m.owner))].sort((a, b) => a - b);
  for (const owner of owners) {
    const row = el("div", { class: "meld-owner", "data-owner": owner }, el("div", { text: `${name(state, owner)}:` }));
    obs.table.forEach((meld, index) => {
      if (meld.owner !== owner) return;
      row.append(el("span", { class: "table-meld", "data-meld": index },
        el("span", { class: "index", text: `meld ${index + 1}` }), ...cardsOf(meld, state)));
    });
    box.append(row);
  }
}

function showHand(state) {
  const box = $("hand");
  const arr = $("arrangement");
  box.replaceChildren();
  arr.replaceChildren();
  const hand = state.replay ? [] : state.observation.hand || [];
  if (state.replay) {
    return;
  }
  selected = selected.filter((i) => i < hand.length);
  // The hand in its best arrangement: melds first, then deadwood; each card keeps its index in the hand.
  const left = hand.map((c, i) => ({ card: c, index: i }));
  const take = (face) => {
    const at = left.findIndex((x) => x.card === face);
    return at < 0 ? null : left.splice(at, 1)[0];
  };
  const groups = [];
  if (state.arrangement) {
    for (const meld of state.arrangement.melds) {
      groups.push({ kind: "meld", items: meld.cards.map((c, i) => ({ ...take(c), means: (meld.stands_for || [])[i] })) });
    }
    groups.push({ kind: "deadwood", items: state.arrangement.deadwood.map((c) => take(c)) });
  }
  if (left.length) groups.push({ kind: "deadwood", items: left });
  for (const group of groups) {
    const items = group.items.filter((x) => x && x.card);
    if (!items.length) continue;
    // Deadwood in a card player's order: suit by suit, rank by rank (a meld keeps its own order: a run's).
    if (group.kind === "deadwood") items.sort((a, b) => (cardOrder(a.card) ?? 99) - (cardOrder(b.card) ?? 99));
    const label = group.kind === "meld" ? "meld" : `deadwood ${state.arrangement ? state.arrangement.deadwood_value : ""}`;
    const node = el("span", { class: `group ${group.kind}` }, el("span", { class: "label", text: label }));
    for (const item of items) {
      const card = cardNode(item.card, item.means);
      card.dataset.index = item.index;
      if (selected.includes(item.index)) card.classList.add("selected");
      card.addEventListener("click", () => toggle(item.index, card));
      node.append(card);
    }
    box.append(node);
  }
  if (state.arrangement) {
    arr.textContent = `Best arrangement: ${count(state.arrangement.melds.length, "meld")}, deadwood ` +
      `${state.arrangement.deadwood.map(prettyCard).join(" ") || "none"} (${state.arrangement.deadwood_value})`;
  }
}

function toggle(index, card) {
  const at = selected.indexOf(index);
  if (at >= 0) selected.splice(at, 1);
  else selected.push(index);
  card.classList.toggle("selected", at < 0);
}

function selectedCards() {
  const hand = table.observation.hand || [];
  return selected.map((i) => hand[i]);
}

function sameCards(text, cards) {
  const named = text.replace(/^meld /, "").split(/[ |]+/).filter(Boolean).map((t) => t.split("=")[0]).sort();
  const wanted = [...cards].sort();
  return named.length === wanted.length && named.every((c, i) => c === wanted[i]);
}

function showActions(state) {
  const box = $("actions");
  box.replaceChildren();
  const legal = state.legal_actions;
  const melds = legal.filter((a) => a.startsWith("meld "));
  $("meld").hidden = !melds.length;
  $("clear").hidden = !melds.length; // cards are selected to build a meld
  for (const text of inCardOrder(legal)) {
    if (text.startsWith("meld ")) continue;
    // The button shows the move as people number table melds; it sends the API's text.
    box.append(el("button", { class: "action", "data-action": text, text: forPeople(text), onclick: () => move(text) }));
  }
}

async function meld() {
  const cards = selectedCards();
  if (!cards.length) return showError("Select the cards of the meld first, then press Meld.");
  // The legal meld of exactly these cards (it says what a wild card stands for), else the plain text.
  const match = table.legal_actions.find((a) => a.startsWith("meld ") && sameCards(a, cards));
  await move(match || `meld ${cards.join(" ")}`);
}

async function move(text) {
  if (viewSeat === null) return;
  try {
    const state = await api("POST", `/api/tables/${table.id}/moves`, { seat: viewSeat, action: text }, tokens[viewSeat]);
    // No clearing of the selection here: show() clears it when the hand changes, and the live view may have
    // shown this state already, with cards selected since.
    showError("");
    const humans = humanSeats(state).filter((s) => s in tokens); // the seats this page holds the tokens of
    if (state.current_player !== null && humans.includes(state.current_player) && state.current_player !== viewSeat) {
      viewSeat = state.current_player; // several people at one screen: pass it on
      await refresh();
      listen();
    } else {
      show(state);
    }
  } catch (error) {
    if (error.status === undefined) showError("The server cannot be reached: the move was not made. Try again in a moment.");
    else showError(`Refused: ${forPeople(error.message)}`);
  }
}

function showScores(state) {
  const sheet = $("scores");
  sheet.replaceChildren();
  sheet.append(el("tr", {}, el("th", { text: "hand" }), ...state.names.map((n, s) => el("th", { text: name(state, s) }))));
  state.results.forEach((result) => {
    sheet.append(el("tr", {}, el("td", { text: `${result.number} ${result.words ? result.words.ending : result.kind}` }),
      ...result.scores.map((p) => el("td", { text: String(p) }))));
  });
  for (const bonus of state.bonuses) {
    const cells = state.names.map((_, s) => el("td", { text: s === bonus.seat ? String(bonus.points) : "" }));
    sheet.append(el("tr", {}, el("td", { text: bonus.name }), ...cells));
  }
  sheet.append(el("tr", { class: "total" }, el("th", { text: "total" }),
    ...state.scores.map((p) => el("th", { text: String(p) }))));
  $("sides").textContent = (state.sides || [])
    .map((side) => `${side.seats.map((s) => state.names[s]).join(" & ")}: ${side.score}`).join("; ");
}

function showLog(state) {
  const log = $("log");
  log.replaceChildren(...state.log.map((e) => el("li", { text: `(${e.deal}) ${forPeople(e.text)}` })));
  log.scrollTop = log.scrollHeight;
}

function showStatus(state) {
  let text;
  if (state.is_over) {
    const winner = state.winner === null ? "Nobody wins" : `${name(state, state.winner)} wins`;
    text = `Game over (${state.end_reason}). ${winner}.`;
  } else if (state.replay) {
    text = `Replay: ${state.names[state.current_player]} to act`;
  } else if (state.current_player === viewSeat) {
    const who = humanSeats(state).length > 1 ? `${state.names[viewSeat]}: ` : "";
    text = `${who}Your turn (${state.observation.phase})`;
  } else {
    text = `${name(state, state.current_player)} to act`;
  }
  $("status").textContent = text;
}

// The links to send: a join link for each person seat this page invites somebody to (not one it plays) that
// is still free, and the onlooker's link.
function showInvite(state) {
  const box = $("invite");
  box.hidden = !!state.replay;
  if (state.replay) return;
  const base = `${location.origin}${location.pathname}`;
  const given = invites && invites.id === state.id ? invites : null;
  const rows = [el("h3", { text: "Invite" })];
  for (const seat of humanSeats(state)) {
    const token = inviteTokens[seat]; // not the seats played at this screen
    if ((state.taken && state.taken[seat]) || mine.has(seat) || !token) continue;
    const link = given && given.seats && given.seats[seat] && given.seats[seat].endsWith(`=${token}`)
      ? given.seats[seat] : `${base}#t=${state.id}&seat${seat}=${token}`;
    const row = linkRow(`Seat ${seat + 1} (${state.names[seat]}): its join link, for one person`, link,
      { "data-seat": seat });
    if (owner && !state.is_over) row.append(botButton(state, seat));
    rows.push(row);
  }
  rows.push(linkRow("Onlookers (no hand shown)", given ? given.onlooker : `${base}#t=${state.id}`,
    { "data-onlooker": "1" }));
  if (rows.length > 2 && /^(localhost|127\.|0\.0\.0\.0$|\[::1?\]$)/.test(location.hostname)) {
    // The links name the address this page was opened at: other machines cannot reach this one by it.
    rows.push(el("p", { class: "invite-warning", text: `These links name this machine as ${location.hostname}, ` +
      "which only this machine reaches: for friends on other machines, open this page at the address they use " +
      "(this machine's name or IP address), then copy the links." }));
  }
  box.replaceChildren(...rows);
}

// The creator lets a bot play a seat nobody took (a friend who does not come).
function botButton(state, seat) {
  const select = el("select", { class: "bot-choice" });
  for (const bot of catalogue.bots) select.append(el("option", { value: bot, text: `${bot} bot` }));
  select.value = catalogue.bots.includes("greedy") ? "greedy" : catalogue.bots[0];
  const button = el("button", { class: "give-to-bot", text: "Give to a bot" });
  button.addEventListener("click", async () => {
    try {
      await api("POST", `/api/tables/${state.id}/seats/${seat}`, { bot: select.value }, owner);
      delete inviteTokens[seat];
      delete tokens[seat];
      setAddress(state.id);
      await refresh();
    } catch (error) {
      showError(error.message);
    }
  });
  return el("span", { class: "to-bot" }, select, button);
}

function linkRow(label, link, attrs) {
  const input = el("input", { readonly: "", value: link, class: "invite-link" });
  const button = el("button", { class: "copy", text: "Copy" });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (error) {
      input.select();
      document.execCommand("copy");
    }
    button.textContent = "Copied";
  });
  return el("div", { class: "invite-row", ...attrs }, el("div", { text: label }), input, button);
}

function showSettlement(state) {
  const fresh = state.results.slice(shownResults);
  const lines = fresh.flatMap((r) => r.lines || [`Deal ${r.number}: ${r.kind}, scores ${r.scores.join(", ")}`]);
  if (state.is_over) {
    lines.push("", `Final scores: ${state.names.map((n, s) => `${name(state, s)} ${state.scores[s]}`).join(", ")}`);
    for (const bonus of state.bonuses) lines.push(`  ${name(state, bonus.seat)}: ${bonus.name} ${bonus.points}`);
  }
  $("settlement-title").textContent = state.is_over ? "Game over" : `End of deal ${fresh[fresh.length - 1].number}`;
  $("settlement-lines").textContent = lines.join("\n");
  $("next-deal").textContent = state.is_over ? "Close" : "Next deal";
  $("settlement").hidden = false;
  if (!state.replay) settled(state.id, shownResults); // until Next deal is pressed: shown again after a reload
  shownResults = state.results.length;
}

// How many finished hands of a table this browser has dismissed the settlement of (Next deal), so that a
// reload shows again a settlement nobody dismissed, and those of hands finished while the page was closed.
function settled(id, count) {
  try {
    localStorage.setItem(`rummykit-settled-${id}`, String(count));
  } catch (error) {
    // storage refused (a private window): a reload then shows no past settlement
  }
}

function settledAt(state) {
  const kept = localStorage.getItem(`rummykit-settled-${state.id}`);
  const count = Number(kept);
  return kept !== null && Number.isInteger(count) && count >= 0 && count <= state.results.length
    ? count : state.results.length;
}

async function step(body) {
  try {
    show(await api("POST", `/api/tables/${table.id}/step`, body, owner));
  } catch (error) {
    showError(error.message);
  }
}

function wire() {
  $("start").addEventListener("click", start);
  $("replay").addEventListener("click", startReplay);
  $("meld").addEventListener("click", meld);
  $("clear").addEventListener("click", () => { selected = []; show(table); });
  $("next-deal").addEventListener("click", () => {
    $("settlement").hidden = true;
    if (table && !table.replay) settled(table.id, shownResults);
  });
  $("new-game").addEventListener("click", () => {
    stopListening();
    $("table").hidden = true; $("setup").hidden = false; $("new-game").hidden = true; $("settlement").hidden = true;
    $("join-box").hidden = true;
    tokens = {}; inviteTokens = {}; owner = null; mine = new Set(); table = null;
    history.replaceState(null, "", location.pathname);
    loadLobby();
  });
  $("lobby-refresh").addEventListener("click", loadLobby);
  $("replay-start").addEventListener("click", () => step({ to: 0 }));
  $("replay-back").addEventListener("click", () => step({ by: -1 }));
  $("replay-forward").addEventListener("click", () => step({ by: 1 }));
  $("replay-end").addEventListener("click", () => step({ to: table.replay.total }));
}

// -- the lobby --

async function loadLobby() {
  if ($("setup").hidden) return;
  try {
    showLobby((await request("GET", "/api/lobby")).tables);
  } catch (error) {
    // the next refresh tries again
  }
}

function showLobby(tables) {
  const box = $("lobby-list");
  if (!tables.length) {
    box.replaceChildren(el("p", { class: "lobby-empty", text: "No listed table is being played." }));
    return;
  }
  box.replaceChildren(...tables.map((t) => el("div", { class: "lobby-table", "data-table": t.id },
    el("div", { class: "lobby-title",
      text: `${t.title}${t.house_rules.length ? " + " + t.house_rules.join(", ") : ""} — ${count(t.free, "free seat")}` }),
    el("ul", {}, ...t.seats.map((s) => el("li", { "data-seat": s.seat },
      `Seat ${s.seat + 1}: ${s.free ? "free" : s.bot ? `${s.name} (${s.bot} bot)` : s.name}`,
      ...(s.free ? [el("button", { class: "lobby-join", text: "Join", onclick: () => lobbyJoin(t.id, s.seat) })] : [])))),
    el("button", { class: "lobby-watch", text: "Watch", onclick: () => watch(t.id) }))));
}

function lobbyError(message) {
  $("lobby-error").textContent = forPeople(message || "");
  $("lobby-error").hidden = !message;
}

async function lobbyJoin(id, seat) {
  const name = yourName();
  if (!name) return lobbyError("Type your name first (Your name, above).");
  try {
    const state = await api("POST", `/api/tables/${id}/join`, { name, seat });
    lobbyError("");
    tokens = { [seat]: state.token };
    mine = new Set([seat]);
    owner = null;
    inviteTokens = {};
    await open(state, state.results.length);
  } catch (error) {
    lobbyError(error.message);
    loadLobby();
  }
}

async function watch(id) {
  try {
    const state = await api("GET", `/api/tables/${id}`);
    tokens = {};
    mine = new Set();
    owner = null;
    inviteTokens = {};
    await open(state, state.results.length);
  } catch (error) {
    lobbyError(error.message);
  }
}

// -- opening an address: the page's own, a join link, or the onlookers' link --

function askToJoin(state, seat, token) {
  $("setup").hidden = true;
  $("join-box").hidden = false;
  $("join-form").hidden = false;
  $("join-text").textContent = `Join seat ${seat + 1} of ${state.title}` +
    `${state.house_rules.length ? " + " + state.house_rules.join(", ") : ""} as:`;
  $("join-name").value = $("your-name").value;
  $("join-go").onclick = async () => {
    const name = $("join-name").value.trim();
    if (!name) return joinError("Type your name first.");
    localStorage.setItem("rummykit-name", name);
    try {
      const joined = await api("POST", `/api/tables/${state.id}/join`, { name, seat }, token);
      tokens = { [seat]: joined.token || token }; // the link's token stops working: the new one replaces it
      mine = new Set([seat]);
      owner = null;
    inviteTokens = {};
      joinError("");
      await open(joined, joined.results.length);
    } catch (error) {
      // The link no longer works (somebody took the seat, or its token is wrong); else say why and let them retry.
      if (error.status === 403 || error.status === 409 || error.status === 410) refused(state.id, error.message);
      else joinError(forPeople(error.message));
    }
  };
  $("join-watch").onclick = () => watch(state.id);
}

function joinError(message) {
  $("join-error").textContent = forPeople(message || "");
  $("join-error").hidden = !message;
}

function refused(id, message) {
  $("setup").hidden = true;
  $("join-box").hidden = false;
  $("join-form").hidden = true;
  $("join-text").textContent = "This join link no longer works.";
  joinError(message);
  $("join-watch").onclick = () => watch(id);
}

async function openLink(link) {
  owner = link.owner;
  inviteTokens = link.owner ? { ...link.invites } : {}; // the creator's own address keeps the links it sends
  tokens = {};
  mine = new Set();
  let state = null;
  let refusal = null;
  const free = [];
  for (const seat of Object.keys(link.tokens).map(Number).sort((a, b) => a - b)) {
    try {
      const seen = await api("GET", `/api/tables/${link.id}`, undefined, link.tokens[seat]);
      tokens[seat] = link.tokens[seat];
      // A seat already taken whose token still works is this page's own: joining gave that token.
      if (seen.taken && seen.taken[seat]) mine.add(seat);
      else free.push({ seat, state: seen });
      state = state || seen;
    } catch (error) {
      if (error.status !== 403) throw error; // the table is gone
      refusal = refusal || error;
    }
  }
  setAddress(link.id);
  if (state === null && refusal !== null) return refused(link.id, refusal.message);
  if (state === null) state = await api("GET", `/api/tables/${link.id}`);
  if (!owner && !mine.size && free.length && !state.replay && !state.is_over) {
    return askToJoin(free[0].state, free[0].seat, tokens[free[0].seat]);
  }
  await open(state, settledAt(state));
}

// The table (and tokens) the page's address names, if any.
async function openAddress() {
  const link = readLink(location.hash.slice(1));
  if (!link.id || !/^[0-9a-f]{32}$/.test(link.id)) return;
  try {
    await openLink(link);
  } catch (error) { // the table is gone (the reason says why): stay on the setup
    $("table").hidden = true;
    $("setup").hidden = false;
    $("notice").textContent = error.message;
    $("notice").hidden = false;
  }
}

window.addEventListener("DOMContentLoaded", async () => {
  wire();
  $("your-name").value = localStorage.getItem("rummykit-name") || "";
  await loadCatalogue();
  await openAddress();
  // A link pasted into the address bar of the open page (the page's own changes do not fire this).
  window.addEventListener("hashchange", () => {
    stopListening();
    table = null;
    $("settlement").hidden = true;
    showError("");
    openAddress();
  });
  loadLobby();
  setInterval(loadLobby, 3000);
  // Back on the network: the live view is opened again at once (it catches up with what was missed).
  window.addEventListener("online", () => { if (table && !$("table").hidden) listen(); });
  document.body.dataset.ready = "1";
});
