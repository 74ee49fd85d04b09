import { createRoom, startRoom, actInRoom, joinRoom } from "./dist/platform/room.js";
import { encodeHead } from "./dist/platform/redis-room-store.js";
import { roomViewsParts } from "./dist/platform/views.js";
import { randomLegalAction } from "./dist/games/legal.js";
import { goblinMarket } from "./dist/games/goblin-market/index.js";
let seed = 7; const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const rooms = [];
for (let g = 0; g < 20; g++) {
  const ps = [0,1,2,3].map(i => ({ id: "guest_" + g + "_" + i + "abcdefgh", name: "Player "+i }));
  let r = createRoom("room"+g, ps[0], { game: "goblin-market", seats: 4 }, 1.76e12);
  for (const p of ps.slice(1)) r = joinRoom(r, p, undefined, 1.76e12);
  r = startRoom(r, ps[0], "ab".repeat(32), 1.76e12);
  while (r.status === "playing") {
    const seat = goblinMarket.activeSeats(r.state)[0];
    const a = randomLegalAction(goblinMarket.legalActions(r.state, seat), random);
    r = actInRoom(r, seat, a, "a" + Math.floor(random()*1e9).toString(36), 1.76e12 + r.version * 1013);
    rooms.push(r);
  }
}
const viewers = [0,1,2,3].map(s => ({ kind: "seat", seat: s })).concat([{ kind: "spectator" }]);
function bench(label, f) {
  for (let i = 0; i < 3; i++) for (const r of rooms) f(r);
  const t0 = performance.now(); let n = 0;
  for (let i = 0; i < 5; i++) for (const r of rooms) { f(r); n++; }
  console.log(label.padEnd(28), ((performance.now() - t0) * 1000 / n).toFixed(2), "µs");
}
console.log("rooms", rooms.length, "head bytes", encodeHead(rooms[100]).length);
bench("encodeHead", encodeHead);
bench("stringify state", (r) => JSON.stringify(r.state));
bench("stringify state w/o log", (r) => JSON.stringify({ ...r.state, log: [] }));
bench("views parts (5)", (r) => roomViewsParts(r, viewers, r.state.log.length - 2, 1.76e12));
bench("legal x4", (r) => { for (let s = 0; s < 4; s++) JSON.stringify(goblinMarket.legalActions(r.state, s)); });
bench("view", (r) => JSON.stringify(goblinMarket.view(r.state, viewers[0])));
