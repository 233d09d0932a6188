import { Migration } from '@mikro-orm/migrations';

// Materials and their property datasets. A self-hosted registry holds a small system catalogue
// (organization_id null: readable by every organization, seeded here) of the common electrode,
// electrolyte and separator materials; the client reads materials and never creates them, so a
// lab's measured properties (OCP curves, diffusivities, conductivities) hang off a catalogue
// material as project-scoped datasets. organization_id/project_id on materials leave room for
// a lab's own materials.
const CATALOGUE: [name: string, category: string, description: string][] = [
  ['Graphite', 'anode', 'Graphite negative electrode active material'],
  ['Silicon-graphite', 'anode', 'Silicon-graphite composite negative electrode active material'],
  ['LTO', 'anode', 'Lithium titanate (Li4Ti5O12)'],
  ['NMC111', 'cathode', 'LiNi1/3Mn1/3Co1/3O2'],
  ['NMC532', 'cathode', 'LiNi0.5Mn0.3Co0.2O2'],
  ['NMC622', 'cathode', 'LiNi0.6Mn0.2Co0.2O2'],
  ['NMC811', 'cathode', 'LiNi0.8Mn0.1Co0.1O2'],
  ['NCA', 'cathode', 'LiNi0.8Co0.15Al0.05O2'],
  ['LFP', 'cathode', 'Lithium iron phosphate (LiFePO4)'],
  ['LCO', 'cathode', 'Lithium cobalt oxide (LiCoO2)'],
  ['LMO', 'cathode', 'Lithium manganese oxide (LiMn2O4)'],
  ['LiPF6 in EC:EMC', 'electrolyte', '1 M LiPF6 in ethylene carbonate : ethyl methyl carbonate'],
  ['LiPF6 in EC:DMC', 'electrolyte', '1 M LiPF6 in ethylene carbonate : dimethyl carbonate'],
  ['Polyethylene separator', 'separator', 'Microporous polyethylene separator'],
  ['Polypropylene separator', 'separator', 'Microporous polypropylene separator'],
];

export class Migration20261127201000Materials extends Migration {
  override name = 'Migration20261127201000Materials';

  up(): void {
    this.addSql(`create table materials (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid references organizations (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      name text not null,
      category text,
      manufacturer text,
      product_id text,
      description text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (project_id is null or organization_id is not null)
    )`);
    this.addSql(`create unique index materials_system_name_key on materials (name) where organization_id is null`);
    this.addSql(`create index materials_project_idx on materials (project_id) where project_id is not null`);
    const text = (v: string) => `'${v.replaceAll("'", "''")}'`;
    this.addSql(`insert into materials (name, category, description) values ${CATALOGUE.map((row) => `(${row.map(text).join(', ')})`).join(', ')}`);
    this.addSql(`create table material_property_datasets (
      id uuid primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      material_id uuid not null references materials (id) on delete cascade,
      name text not null,
      columns jsonb not null,
      nan_counts jsonb not null,
      row_count integer not null,
      data_version integer not null default 1,
      object_key text not null,
      size_bytes bigint not null,
      created_by uuid not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index material_property_datasets_material_idx on material_property_datasets (material_id, project_id, created_at desc)`);
  }

  override down(): void {
    this.addSql(`drop table material_property_datasets`);
    this.addSql(`drop table materials`);
  }
}
