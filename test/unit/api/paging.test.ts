/** When a list without paging members may have been cut, so docket asks for its next page. */
import { describe, expect, it } from 'vitest';
import { countProblem, looksTruncated } from '../../../src/api/paging.js';

describe('looksTruncated', () => {
  it('a page of a common default size, fewer than asked for, or exactly as many as asked for', () => {
    expect(looksTruncated(15, 100)).toBe(true);
    expect(looksTruncated(30, null)).toBe(true);
    expect(looksTruncated(100, 100)).toBe(true);
    expect(looksTruncated(42, 100)).toBe(false);
  });

  it('any page under 25 items when the service refused every size asked for (its own may be 10)', () => {
    expect(looksTruncated(10, null)).toBe(true);
    expect(looksTruncated(24, null)).toBe(true);
    expect(looksTruncated(0, null)).toBe(false);
    expect(looksTruncated(27, null)).toBe(false);
    expect(looksTruncated(10, 100)).toBe(false);
  });
});

describe('countProblem', () => {
  const page = (data: unknown[], pagination: Record<string, unknown>) => ({ data, meta: { pagination } });
  const listProblem = (body: { data: unknown[] } & Record<string, unknown>) => countProblem(body, body.data.length);
  const item = (id: string) => ({ id, type: 'playbook', attributes: { name: id } });

  it('refuses a one-page list whose items are not the count it gives: read as empty, everything would be created again', () => {
    expect(listProblem(page([], { current: 1, next: null, last: 1, records: 7 }))).toBe('"data" holds 0 items, but "meta.pagination.records" says the list holds 7');
    expect(listProblem(page([item('a')], { current: 1, next: null, last: 1, records: 2 }))).toBe('"data" holds 1 item, but "meta.pagination.records" says the list holds 2');
    // Saying nothing of its page or the last one, and naming no next page, by number or by link.
    expect(listProblem({ data: [], links: { next: null }, meta: { pagination: { records: 601 } } })).toBe('"data" holds 0 items, but "meta.pagination.records" says the list holds 601');
    expect(listProblem(page([], { records: 3 }))).toBe('"data" holds 0 items, but "meta.pagination.records" says the list holds 3');
  });

  it('refuses an empty first page that names pages after it: the pages of a list fill from the first', () => {
    const says = '"data" holds no item, yet the answer names pages after it';
    expect(listProblem(page([], { current: 1, next: 2, last: 5, records: 80 }))).toBe(says);
    expect(listProblem({ data: [], links: { next: '/v1/x?page%5Bnumber%5D=2' } })).toBe(says);
    expect(listProblem(page([], { current: 1, last: 3 }))).toBe(says);
    // A later page may be empty (the list shrank while it was read).
    expect(countProblem(page([], { current: 2, next: 3, last: 3 }), 0, false)).toBeUndefined();
  });

  it('refuses a first page that names a last page past it but no next one: its other pages would read as removed live (probe BD-1)', () => {
    const members = Array.from({ length: 15 }, (_, i) => item(`m${i}`));
    expect(listProblem({ data: members, links: { next: null }, meta: { pagination: { current: 1, next: null, last: 3, records: 45 } } })).toBe('the first page says the list has 3 pages ("meta.pagination.last"), but names no next page');
    expect(listProblem(page(members, { last: '3' }))).toBe('the first page says the list has "3" pages ("meta.pagination.last"), but names no next page');
    // Paging by links alone: its `links.last` (second read SR100B-4).
    expect(listProblem({ data: members, links: { next: null, last: '/v1/users?page%5Bnumber%5D=3&page%5Bsize%5D=15' } })).toBe('the first page names page 3 as its last ("links.last"), but no next page');
    expect(listProblem({ data: members, links: { next: null, last: 'https://x.example/v1/users?page[number]=1' } })).toBeUndefined();
    // With a next page, by number or link, it is read on.
    expect(listProblem(page(members, { current: 1, next: 2, last: 3, records: 45 }))).toBeUndefined();
    expect(listProblem({ data: members, links: { next: '/v1/x?page%5Bnumber%5D=2' }, meta: { pagination: { current: 1, last: 3 } } })).toBeUndefined();
  });

  it('takes a later page, or a first one that names a next page by link, whatever count it gives', () => {
    expect(countProblem({ data: [item('c')], meta: { pagination: { records: 3 } } }, 1, false)).toBeUndefined();
    expect(listProblem({ data: [item('a')], links: { next: '/v1/x?page%5Bnumber%5D=2' }, meta: { pagination: { records: 3 } } })).toBeUndefined();
  });

  it('takes a list whose count agrees, a page of several, and one that gives no count', () => {
    expect(listProblem(page([item('a'), item('b')], { current: 1, next: null, last: 1, records: 2 }))).toBeUndefined();
    expect(listProblem(page([], { current: 1, next: null, last: 1, records: 0 }))).toBeUndefined();
    // A page of several: the others hold the rest (and may change while they are read).
    expect(listProblem(page([item('a')], { current: 1, next: 2, last: 2, records: 30 }))).toBeUndefined();
    expect(listProblem({ data: [item('a')] })).toBeUndefined();
  });
});
