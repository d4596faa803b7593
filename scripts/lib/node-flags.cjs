// The V8 flags of the shop's Node processes: npm start and the test stack pass them (scripts/lib/stack.mjs), the
// Dockerfile, docker-compose.yml and k8s set the same (scripts/checks/deploy-config.spec.ts holds them to it).
'use strict';

/**
 * Every process: a young generation of 4 MB semi-spaces instead of V8's 16 MB, which each idle process had touched —
 * about 35 MB of RSS each (docs/performance.md, "Footprint").
 */
const NODE_FLAGS = '--max-semi-space-size=4';

/**
 * A process's own flags, instead of NODE_FLAGS:
 * - gateway and cart, which every cart request goes through, keep V8's default 16 MB semi-spaces: with 4 MB, a
 *   scavenge ran every few hundred requests and copied the objects of the 50 in flight each time. Under a guest-cart
 *   read load (--trace-gc-nvp, 15 s): cart 1,606 -> 526 scavenges, GC pauses 38 -> 14 µs a request, CPU 191 -> 140 µs;
 *   gateway 416 -> 138 scavenges, 30 -> 10 µs, CPU 415 -> 345 µs. ~30 MB more RSS each (docs/performance.md,
 *   "Footprint").
 * - orders streams exports of every order (CSV, JSON): what it allocates on the way is garbage, but with small
 *   semi-spaces much of it outlives two scavenges, and V8 let its old space grow to about three times the live heap
 *   (~115 MB) before collecting: RSS 215 MB while exporting 100,000 orders. A budget of 128 MB (its live heap is ~40 MB
 *   while exporting) makes V8 collect sooner: 123 MB (docs/performance.md, "Admin orders at 100,000 orders").
 */
const PROCESS_NODE_FLAGS = {
  gateway: '--max-semi-space-size=16',
  cart: '--max-semi-space-size=16',
  orders: `${NODE_FLAGS} --max-old-space-size=128`,
};

/** The NODE_OPTIONS of one of the shop's processes: a service's name, or 'gateway'. */
const nodeFlags = (name) => PROCESS_NODE_FLAGS[name] ?? NODE_FLAGS;

module.exports = { NODE_FLAGS, PROCESS_NODE_FLAGS, nodeFlags };
