// The seeded project roles and their permissions (resource:action). Fixed ids so that
// migrations, clients and tests can name them.
export const RESOURCES = [
  'project',
  'member',
  'cycler',
  'channel',
  'cell_specification',
  'cell_instance',
  'cell_measurement',
  'model',
  'parameterized_model',
  'experiment_template',
  'simulation',
  'study',
  'pipeline',
  'optimization',
  'diagnostic',
] as const;
export const ACTIONS = ['read', 'create', 'update', 'delete'] as const;

const all = RESOURCES.flatMap((r) => ACTIONS.map((a) => `${r}:${a}`));
const reads = RESOURCES.filter((r) => r !== 'diagnostic').map((r) => `${r}:read`);
const contributorWrites = all.filter(
  (perm) => !perm.startsWith('project:') && !perm.startsWith('member:') && !perm.startsWith('diagnostic:'),
);

export const PROJECT_ROLES = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Project Admin',
    description: 'Everything in the project, including its members and deleting it.',
    permissions: all,
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Project Contributor',
    description: "Reads and writes the project's data; cannot change the project itself or its members.",
    permissions: [...new Set([...reads, ...contributorWrites])],
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    name: 'Project Viewer',
    description: "Reads the project's data.",
    permissions: reads,
  },
] as const;

export const PROJECT_ADMIN_ROLE_ID = PROJECT_ROLES[0].id;
