// Where a raw-data file lives: one object under the record's prefix, inside its project's, so
// deleting the record or its project removes it.
export const rawDataPrefix = (organizationId: string, projectId: string, rawDataId: string) =>
  `orgs/${organizationId}/projects/${projectId}/raw_data/${rawDataId}/`;

/** The user's filename as a safe key segment; the original name stays on the record and in downloads. */
export function rawDataKey(prefix: string, filename: string): string {
  const safe =
    filename
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 120) || 'file';
  return `${prefix}${safe}`;
}
