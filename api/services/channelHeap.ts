// The auto-schedule's candidates for one kind of plan: its rated channels in a binary heap keyed
// by a lower bound of when each is next free (then by the scheduler's channel order), so that
// a plan examines only the channels that could start it earliest instead of rescanning them all.
// Bounds only grow as plans are placed (a new block never frees time), so a bound left behind in
// another kind's heap stays a bound: it is recomputed when it surfaces.

export interface Entry<C> {
  /** No window on the channel starts before this (epoch ms). */
  key: number;
  /** The channel's place in the scheduler's order: equal starts go to the first. */
  order: number;
  channel: C;
}

const before = <C>(a: Entry<C>, b: Entry<C>) => a.key < b.key || (a.key === b.key && a.order < b.order);

export class ChannelHeap<C> {
  private items: Entry<C>[];

  constructor(entries: Entry<C>[]) {
    this.items = entries;
    for (let i = (entries.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  peek(): Entry<C> | undefined {
    return this.items[0];
  }

  pop(): Entry<C> | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top && last && this.items.length) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  push(e: Entry<C>): void {
    const items = this.items;
    items.push(e);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && before(items[l]!, items[m]!)) m = l;
      if (r < items.length && before(items[r]!, items[m]!)) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m]!, items[i]!];
      i = m;
    }
  }
}
