"use strict";
// A progressive sign: one event stream from the sign process carries its whole state, then
// every change. Amounts are integer cents, written with BigInt arithmetic (never floats).
const SIGN = decodeURIComponent(location.pathname.split("/")[2] || "");
// When this screen shows PROGRESSIVE CLOSED by itself, whatever a level's state says (the
// controller's rule for each level is closed_reason in jackpot/domain/signs.py):
//   * silence: no event (state, meters or ping) from the sign process for SILENT_MS;
//   * the store down: the sign process's `ping` says it cannot read the store;
//   * no sign: the sign was deleted (a `state` of null), or no state came within BOOT_MS.
// It opens again on the next state or meters event once the store is up. A sign this screen
// has never shown that the controller does not know says so to whoever is installing it,
// not PROGRESSIVE CLOSED, until it is defined.
const SILENT_MS = 6000;      // no word for this long: the sign shows the progressive closed
const BOOT_MS = 3000;        // no state this long after loading: shown closed until one comes
const TAKEOVER_MS = 9000;    // how long a hit is celebrated
const COUNT_MS = 1200;       // how long the meter takes to count up to a new value
const REFUSED_MS = 5000;     // a refused stream is asked for again after this, and up to as long
                             // again at random (the refusals' Retry-After is 5 s)
let state = null;            // the last `state` event
let shown = {};              // pool -> the value on screen (cents, may lag behind while counting)
let target = {};             // pool -> the real value
let counting = {};           // pool -> {from, to, start}
let seen = null;             // payout ids already announced (null: none known yet)
let heard = 0;               // when the controller was last heard from (performance.now())
let storeUp = true;
let queue = [];              // hits waiting for their takeover
let inTakeover = false;
let money = null;            // cents -> text, for the sign's currency and locale

function formatter(locale, currency) {
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const parts = new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(1234.5);
  return (cents) => {
    const c = BigInt(cents);
    const negative = c < 0n, abs = negative ? -c : c;
    const units = whole.format(abs / 100n), fraction = String(abs % 100n).padStart(2, "0");
    let out = "", integerDone = false;
    for (const p of parts) {
      if (p.type === "integer" || p.type === "group") {
        if (!integerDone) { out += units; integerDone = true; }
      } else if (p.type === "fraction") out += fraction;
      else out += p.value;
    }
    return (negative ? "−" : "") + out;
  };
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function timeOf(ms) {
  if (!state || !ms) return "";
  return new Intl.DateTimeFormat(state.sign.locale, { hour: "numeric", minute: "2-digit" })
    .format(new Date(Number(ms)));
}

// ---- the state ----
let everShown = false;        // this screen has shown the sign's state at least once
function applyState(next) {
  if (!next || next.sign === null) {
    if (!everShown) showUndefined();
    state = null; setOffline(true); return;
  }
  everShown = true;
  document.body.classList.remove("undefined");
  const first = state === null;
  state = next;
  money = formatter(state.sign.locale, state.sign.currency);
  orient(state.sign.orientation);
  document.getElementById("title").textContent = state.sign.title;
  document.getElementById("branding").textContent = state.sign.branding || "";
  document.title = state.sign.title;
  const announce = [];
  for (const w of state.winners) {
    if (seen !== null && !seen.has(w.id)) announce.push(w);
  }
  seen = new Set([...(seen || []), ...state.winners.map((w) => w.id)]);
  renderLevels(first);
  renderPaytable();
  renderWinners();
  for (const w of announce.reverse()) queue.push(w);
  if (!inTakeover) nextTakeover();
}
function renderLevels(first) {
  const box = document.getElementById("levels");
  const cards = state.levels.map((lv) => {
    const card = el("section", "level" + (lv.closed ? " closed" : ""));
    card.dataset.pool = lv.pool;
    card.append(el("div", "name", lv.name), el("div", "meter"), el("div", "closed-note", "PROGRESSIVE CLOSED"));
    // a must-hit-by level promises its ceiling (never its hidden trigger), and a trigger
    // level says how it is won (docs/RULES.md §4, D281); its small print is the commitment
    // to its trigger, published before play
    const how = wonBy(lv);
    if (how) card.append(el("div", "hit-by", how.headline), el("div", "how", how.rule));
    if (lv.trigger) card.append(el("div", "seal", "Trigger #" + lv.trigger.draw + " sealed · " + lv.trigger.commitment.slice(0, 16)));
    if (first || !(lv.pool in shown) || inTakeover) shown[lv.pool] = lv.value;
    target[lv.pool] = lv.value;
    return card;
  });
  box.replaceChildren(...cards);
  for (const lv of state.levels) setTarget(lv.pool, lv.value);
  paint();
  refit();
}
// How a level won by a hidden trigger is won, in patrons' words (docs/RULES.md §4: the first
// bet of at least the qualifying wager whose contribution brings the meter to the trigger)
function wonBy(lv) {
  const smallest = lv.qualifying_wager > 0
    ? "smallest qualifying wager " + money(lv.qualifying_wager) : "every wager qualifies";
  if (lv.kind === "must_hit_by" && lv.cap !== null) return {
    headline: "Must hit by " + money(lv.cap),
    rule: "Won by the qualifying wager whose contribution reaches the hidden trigger, at or " +
      "below " + money(lv.cap) + "; " + smallest,
  };
  if (lv.kind === "mystery") return {
    headline: "Mystery jackpot",
    rule: "Won by the qualifying wager whose contribution reaches the hidden trigger; " + smallest,
  };
  return null;
}
function renderPaytable() {
  const table = document.getElementById("paytable");
  const lines = (state.levels[0] && state.levels[0].paytable) || [];
  table.replaceChildren(...lines.map((line) => {
    const tr = el("tr");
    tr.append(el("td", "outcome", line.outcome), el("td", "pays", line.pays));
    return tr;
  }));
  const envy = lines.filter((l) => l.envy).map((l) => l.outcome + ": " + l.envy);
  document.getElementById("envy-note").textContent = envy.length ? "Envy bonus — " + envy.join(" · ") : "";
  // the bet a jackpot is for: each different rule once, in the paytable's order
  const rules = [...new Set(lines.filter((l) => l.qualifying).map((l) => l.qualifying))];
  document.getElementById("qualifying-note").textContent = rules.join(" · ");
  // the journals' latest signed checkpoint, beside the commitments: anyone may check it
  const ckpt = state.checkpoint;
  document.getElementById("checkpoint-note").textContent = ckpt
    ? "Journals checkpoint #" + ckpt.id + " · " + ckpt.short + " · " + timeOf(ckpt.ts)
    : "Journals not yet covered by a checkpoint";
}
function renderWinners() {
  const list = document.getElementById("winners");
  if (!state.winners.length) {
    list.replaceChildren(el("li", "empty", "Be the first winner tonight!"));
    return;
  }
  list.replaceChildren(...state.winners.map((w) => {
    const li = el("li");
    li.dataset.payout = w.id;
    const where = [w.location, w.asset ? "table " + w.asset : ""].filter(Boolean).join(" · ");
    li.append(el("span", "amount", money(w.amount)), el("span", "what", w.outcome + " · " + w.level));
    const when = el("span", "when " + (w.status === "verified" ? "verified" : "awaiting"),
      [timeOf(w.time), where, w.status === "verified" ? "" : "won, awaiting verification"]
        .filter(Boolean).join(" · "));
    li.append(when);
    return li;
  }));
  showWhole();
}
// the winners that fit whole, newest first: a line that would be cut is not shown at all
function showWhole() {
  const box = document.getElementById("winners-box"), items = [...document.querySelectorAll("#winners li")];
  items.forEach((li) => { li.hidden = false; });
  // layout offsets (from the same box, #screen), so that a turned sign measures the same
  const bottom = box.offsetTop + box.clientTop + box.clientHeight
    - parseFloat(getComputedStyle(box).paddingBottom);
  let full = false;
  for (const li of items) {
    full = full || li.offsetTop + li.offsetHeight > bottom;
    li.hidden = full;
  }
}

// ---- the meters: counting up, never past the real value, down only on a hit or adjustment ----
function setTarget(pool, value) {
  target[pool] = value;
  const now = shown[pool];
  if (now === undefined || value < now) { shown[pool] = value; delete counting[pool]; return; }
  if (value > now && !(counting[pool] && counting[pool].to === value))
    counting[pool] = { from: now, to: value, start: performance.now() };
}
function tick(t) {
  for (const [pool, c] of Object.entries(counting)) {
    const k = Math.max(0, Math.min(1, (t - c.start) / COUNT_MS));
    // integer cents, eased; BigInt keeps every step exact and never beyond `to`
    const span = BigInt(c.to - c.from);
    const step = BigInt(Math.floor(k * 1000));
    shown[pool] = Number(BigInt(c.from) + (span * step) / 1000n);
    if (k >= 1) { shown[pool] = c.to; delete counting[pool]; }
  }
  paint();
  if (performance.now() - heard > SILENT_MS) setOffline(true);
}
function frame(t) { tick(t); requestAnimationFrame(frame); }
function paint() {
  if (!money) return;
  for (const card of document.querySelectorAll(".level")) {
    const value = shown[card.dataset.pool];
    if (value === undefined) continue;
    const m = card.querySelector(".meter"), text = money(value);
    if (m.textContent === text) continue;
    const refit = m.textContent.length !== text.length;
    m.textContent = text;
    if (refit) fit(m);
  }
}
// a meter never spills out of its card, however large: shrink it to the card's width, and
// to the card's height when what the card says besides (a level's rule, its seal) needs room
function fit(m) {
  m.style.fontSize = "";
  shrink(m);
  const card = m.closest(".level");
  for (let pass = 0; pass < 3 && m.offsetHeight > 0; pass++) {
    const over = overflow(card);
    if (over <= 0) return;
    const size = parseFloat(getComputedStyle(m).fontSize);
    m.style.fontSize = Math.floor(size * Math.max(0.2, 1 - over / m.offsetHeight) * 0.98) + "px";
  }
}
// how much taller a card's lines are than the card (centred, they spill at both ends)
function overflow(card) {
  const shown = [...card.children].filter((c) => c.offsetHeight > 0);
  if (!shown.length) return 0;
  const style = getComputedStyle(card);
  const room = card.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  // layout offsets, not the screen's boxes: a turned sign's are the same
  const top = Math.min(...shown.map((c) => c.offsetTop));
  const bottom = Math.max(...shown.map((c) => c.offsetTop + c.offsetHeight));
  return bottom - top - room;
}
// a line that must show whole (a meter, a level's name): its type shrinks to its width
function shrink(e) {
  if (e.scrollWidth <= e.clientWidth) return;
  const size = parseFloat(getComputedStyle(e).fontSize);
  e.style.fontSize = Math.floor(size * e.clientWidth / e.scrollWidth * 0.97) + "px";
}
function refit() {
  document.querySelectorAll("#title, .level .name, .level .hit-by").forEach((n) => { n.style.fontSize = ""; shrink(n); });
  document.querySelectorAll(".level .meter").forEach(fit);
  showWhole();
}
window.addEventListener("resize", () => {
  orient(wanted);
  refit();
});
// the sign's orientation, as defined; when the screen's output stands the other way (its
// player does not rotate it), the sign turns a quarter. Kept for a boot during an outage.
let wanted = null;
function orient(orientation) {
  wanted = orientation || null;
  const output = window.innerWidth >= window.innerHeight ? "landscape" : "portrait";
  document.body.classList.toggle("rotated", wanted !== null && wanted !== output);
  try { if (wanted) localStorage.setItem("sign-orientation:" + SIGN, wanted); } catch (e) { /* private mode */ }
}

// ---- a hit: the takeover, then the new base ----
function nextTakeover() {
  const w = queue.shift();
  if (!w) { inTakeover = false; document.body.classList.remove("takeover"); return; }
  inTakeover = true;
  document.getElementById("win-amount").textContent = money(w.amount);
  document.getElementById("win-what").textContent = w.outcome + " · " + w.level;
  const where = [w.asset ? "Table " + w.asset : "", w.location].filter(Boolean).join(" · ");
  document.getElementById("win-where").textContent = where;
  const level = state.levels.find((l) => l.pool === w.pool);
  document.getElementById("win-base").textContent = level ? "New " + level.name + ": " + money(level.value) : "";
  document.body.classList.add("takeover");
  setTimeout(() => {
    if (level) shown[level.pool] = target[level.pool];  // the new base, at once
    nextTakeover();
  }, TAKEOVER_MS);
}

// A sign name the controller does not know, on a screen that never showed it: a word for the
// person installing the screen (a typo in its address, or a sign not defined yet).
function showUndefined() {
  document.getElementById("undefined-what").textContent =
    "No sign named “" + SIGN + "” is defined on this controller.";
  document.getElementById("undefined-how").textContent =
    "Check this screen’s address, or define the sign (PUT /v1/signs/" + encodeURIComponent(SIGN) +
    " with its levels): this screen shows it within seconds, without a reload.";
  document.body.classList.add("undefined");
}

// ---- the link to the controller ----
function setOffline(off) {
  document.body.classList.toggle("offline", off);
  if (off) document.body.classList.remove("takeover");
}
function hear() {
  heard = performance.now();
  if (storeUp && state) setOffline(false);
}
function connect() {
  const source = new EventSource("/signs/" + encodeURIComponent(SIGN) + "/stream");
  source.addEventListener("state", (e) => { storeUp = true; applyState(JSON.parse(e.data)); hear(); document.body.classList.remove("booting"); });
  source.addEventListener("meters", (e) => {
    const m = JSON.parse(e.data);
    for (const [pool, value] of Object.entries(m.values)) setTarget(pool, value);
    hear();
  });
  source.addEventListener("ping", (e) => {
    storeUp = JSON.parse(e.data).up;
    if (!storeUp) setOffline(true); else hear();
  });
  source.onerror = () => {
    // EventSource reconnects by itself when a stream drops, but gives a refused one up for
    // good (429: this address holds its share of streams; 503: the sign process is full):
    // this screen asks again itself, at a random moment so that refused screens do not all
    // come back at once. Meanwhile silence shows the progressive closed.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(connect, REFUSED_MS + Math.random() * REFUSED_MS);
    }
  };
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/signs/sw.js", { scope: "/signs/" }).catch(() => {});
}
try { orient(localStorage.getItem("sign-orientation:" + SIGN)); } catch (e) { /* private mode */ }
heard = performance.now();
setTimeout(() => { if (!state) { setOffline(true); } }, BOOT_MS);
connect();
requestAnimationFrame(frame);
// a screen the browser does not paint (hidden, throttled) still keeps its meter true
setInterval(() => tick(performance.now()), 250);
