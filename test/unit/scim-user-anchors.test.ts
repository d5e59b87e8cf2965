import { describe, expect, it } from 'vitest';
import { UserPageAnchors } from '../../server/directory/scim-user-anchors.js';

const at = (position: number) => ({ position, createdAt: `t${position}`, id: `u${position}` });

/** Which known position a page starts from, and that a new change count forgets the old ones. */
describe('UserPageAnchors', () => {
  it('answers the nearest position at or below the one asked for, under its change count', () => {
    const anchors = new UserPageAnchors();
    expect(anchors.nearest('t', 10)).toBeUndefined();
    anchors.learn('t', '5', [at(51), at(100)]);
    anchors.learn('t', '5', [at(1), at(50), at(51)]);
    expect(anchors.nearest('t', 0)).toBeUndefined();
    expect(anchors.nearest('t', 1)).toEqual({ changes: '5', anchor: at(1) });
    expect(anchors.nearest('t', 50)).toEqual({ changes: '5', anchor: at(50) });
    expect(anchors.nearest('t', 99)).toEqual({ changes: '5', anchor: at(51) });
    expect(anchors.nearest('t', 5000)).toEqual({ changes: '5', anchor: at(100) });
    expect(anchors.nearest('other', 5000)).toBeUndefined();
  });

  it('forgets what it learnt under another change count', () => {
    const anchors = new UserPageAnchors();
    anchors.learn('t', '5', [at(1), at(50)]);
    anchors.learn('t', '6', [at(101)]);
    expect(anchors.nearest('t', 60)).toBeUndefined();
    expect(anchors.nearest('t', 101)).toEqual({ changes: '6', anchor: at(101) });
  });

  it('starts a full tenant over, keeping the page just learnt', () => {
    const anchors = new UserPageAnchors();
    for (let page = 0; page < 200; page++) anchors.learn('t', '1', [at(page * 50 + 1), at(page * 50 + 50)]);
    expect(anchors.nearest('t', 9951)).toEqual({ changes: '1', anchor: at(9951) });
    expect(anchors.nearest('t', 10001)).toEqual({ changes: '1', anchor: at(10000) });
    expect(anchors.nearest('t', 1)).toBeUndefined();
  });
});
