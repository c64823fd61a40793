"use strict";
// The meter page (display.html): every public pool's meter and last hits, read twice a second.
// Amounts arrive as integer cents; they are formatted without floating point.
function dollars(cents) {
  const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return "$" + whole + "." + String(cents % 100).padStart(2, "0");
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
// how a level won by a hidden trigger is won, as the signs say it (docs/RULES.md §4, D281)
function wonBy(p) {
  const smallest = p.qualifying_wager > 0
    ? "smallest qualifying wager " + dollars(p.qualifying_wager) : "every wager qualifies";
  const rule = "won by the qualifying wager whose contribution reaches the hidden trigger";
  if (p.level === "must_hit_by" && p.cap !== null) return "Must hit by " + dollars(p.cap) + " · " + rule + "; " + smallest;
  if (p.level === "mystery") return "Mystery jackpot · " + rule + "; " + smallest;
  return null;
}
async function refresh() {
  const status = document.getElementById("status");
  try {
    const list = await (await fetch("/v1/pools", {cache: "no-store"})).json();
    const main = document.getElementById("pools");
    const cards = [];
    for (const p of list.pools) {
      const detail = await (await fetch("/v1/pools/" + encodeURIComponent(p.pool),
                                        {cache: "no-store"})).json();
      const card = el("section", "pool");
      card.dataset.pool = p.pool;
      card.append(el("div", "name", detail.name || p.pool));  // its display name (D280)
      const value = el("div", "value", dollars(detail.value));
      value.dataset.cents = String(detail.value);
      card.append(value);
      const how = wonBy(detail);
      if (how) card.append(el("div", "how", how));
      if (detail.state === "suspended") {
        // the link is closed by an operator: the side bet cannot be played
        card.classList.add("closed");
        card.append(el("div", "closed-note", "PROGRESSIVE CLOSED"));
      }
      // as the signs show them: a disputed or void hit is no win to announce (API.md)
      const shown = (detail.last_hits || []).filter((h) => h.status !== "void" && h.status !== "disputed");
      for (const h of shown.slice(0, 3)) {
        const line = el("div", "hit " + h.status,
          `${dollars(h.amount)} · table ${h.table} spot ${h.spot} · ${h.status}`);
        card.append(line);
      }
      cards.push(card);
    }
    main.replaceChildren(...cards);
    status.textContent = "updated " + new Date().toLocaleTimeString();
    status.className = "";
  } catch (err) {
    status.textContent = "controller unreachable";
    status.className = "down";
  }
}
refresh();
setInterval(refresh, 500);
