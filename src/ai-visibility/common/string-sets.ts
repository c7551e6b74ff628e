// Sets of strings a run carries that reads group runs by: its search-query keys and the
// competitors it names. Each distinct set is stored once per project (ai_string_sets) under an
// id derived from its members, and the answer carries the id: a range's runs are grouped on a
// 16-byte uuid from a narrow index instead of on arrays or JSON, then each distinct set is
// expanded once (migration 0014).

import { createHash } from 'node:crypto';

/** Members in code-point order (UTF-8 bytes, not UTF-16 units), as the set's row keeps them. */
export const orderedMembers = (members: Iterable<string>): string[] =>
  [...new Set(members)]
    .map((member) => Buffer.from(member))
    .sort(Buffer.compare)
    .map((bytes) => bytes.toString());

/**
 * The id a set is stored under (migration 0014 computes the same in SQL): the first 16 bytes of
 * SHA-256 over the members in code-point order, each written as "<UTF-8 bytes>:<member>", as a
 * uuid. No id for an empty set. Members never hold NUL (PostgreSQL text cannot).
 */
export function stringSetId(members: Iterable<string>): string | null {
  const ordered = orderedMembers(members);
  if (!ordered.length) return null;
  const hash = createHash('sha256');
  for (const member of ordered) hash.update(`${Buffer.byteLength(member)}:${member}`);
  const hex = hash.digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
