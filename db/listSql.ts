// A list request as SQL: what api/listQuery.ts parses from a query string, and repositories
// put into their statements.

export interface ParsedList {
  where: string[];
  params: unknown[];
  orderSql: string;
  limit: number;
  offset: number;
}

/** `where` joined for SQL, with a leading "where" when there is anything. */
export function whereSql(clauses: string[]): string {
  return clauses.length ? `where ${clauses.join(' and ')}` : '';
}
