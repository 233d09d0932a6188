// Columns many tables share, as their migrations define them (set by PostgreSQL on insert).
import { p } from '@mikro-orm/core';

export const createdAt = { created_at: p.datetime().defaultRaw('now()') };
export const timestamps = { ...createdAt, updated_at: p.datetime().defaultRaw('now()') };
