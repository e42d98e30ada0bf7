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
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
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
  return String(text).replace(/\b(on|meld) (\d+)\b/g, (_, word, number) => `${word} ${Number(number) + 1}`);
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

async function start() {
  const count = Number($("players").value);
  const body = {
    variant: $("variant").value,
    house_rules: [...document.querySelectorAll("#house-rules input:checked")].map((i) => i.value),
    players: count,
    bots: [...Array(count).keys()].map((s) => $(`seat-${s}`).value || null),
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    const state = await api("POST", "/api/tables", body);
    open(state);
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
    open(await api("POST", "/api/replays", { record: text }));
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
  return params.toString();
}

function readLink(hash) {
  const params = new URLSearchParams(hash);
  const found = {};
  for (const [key, value] of params) if (/^seat\d+$/.test(key)) found[Number(key.slice(4))] = value;
  return { id: params.get("t"), owner: params.get("owner"), tokens: found };
}

async function open(state, seen = 0) {
  shownResults = seen;
  selected = [];
  if (state.tokens) {
    tokens = Object.fromEntries(Object.entries(state.tokens).map(([seat, token]) => [Number(seat), token]));
    owner = state.owner;
  }
  const humans = humanSeats(state).filter((s) => s in tokens);
  viewSeat = state.replay ? null : (humans.includes(state.current_player) ? state.current_player : humans[0] ?? null);
  if (viewSeat !== state.seat && viewSeat !== null) state = await api("GET", `/api/tables/${state.id}`, undefined, tokens[viewSeat]);
  const url = new URL(location.href);
  url.hash = linkFor(state.id);
  history.replaceState(null, "", url);
  $("setup").hidden = true;
  $("table").hidden = false;
  $("new-game").hidden = false;
  show(state);
}

async function refresh() {
  show(await api("GET", `/api/tables/${table.id}`, undefined, viewSeat === null ? undefined : tokens[viewSeat]));
}

function name(state, seat) {
  return seat === viewSeat && state.names[seat] !== "You" ? `${state.names[seat]} (you)` : state.names[seat];
}

function show(state) {
  table = state;
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
  $("clear").hidden = !melds.length && !legal.length;
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
    selected = [];
    showError("");
    const humans = humanSeats(state).filter((s) => s in tokens); // the seats this page holds the tokens of
    if (state.current_player !== null && humans.includes(state.current_player) && state.current_player !== viewSeat) {
      viewSeat = state.current_player; // several people at one screen: pass it on
      await refresh();
    } else {
      show(state);
    }
  } catch (error) {
    showError(`Refused: ${forPeople(error.message)}`);
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
  shownResults = state.results.length;
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
  $("next-deal").addEventListener("click", () => { $("settlement").hidden = true; });
  $("new-game").addEventListener("click", () => {
    $("table").hidden = true; $("setup").hidden = false; $("new-game").hidden = true; $("settlement").hidden = true;
    tokens = {}; owner = null;
    history.replaceState(null, "", location.pathname);
  });
  $("replay-start").addEventListener("click", () => step({ to: 0 }));
  $("replay-back").addEventListener("click", () => step({ by: -1 }));
  $("replay-forward").addEventListener("click", () => step({ by: 1 }));
  $("replay-end").addEventListener("click", () => step({ to: table.replay.total }));
}

window.addEventListener("DOMContentLoaded", async () => {
  wire();
  await loadCatalogue();
  const link = readLink(location.hash.slice(1));
  if (link.id && /^[0-9a-f]{32}$/.test(link.id)) {
    tokens = link.tokens;
    owner = link.owner;
    const first = Object.keys(tokens).map(Number).sort((a, b) => a - b)[0];
    try {
      const state = await api("GET", `/api/tables/${link.id}`, undefined, first === undefined ? undefined : tokens[first]);
      await open(state, state.results.length);
    } catch (error) { // the table is gone (the reason says why): stay on the setup
      $("notice").textContent = error.message;
      $("notice").hidden = false;
    }
  }
  document.body.dataset.ready = "1";
});
