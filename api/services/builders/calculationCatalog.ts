// What each calculation a builder runs produces and reads, for a recipe's targets and for
// GET /model_builders/calculations/producing: the element to add, with its options filled in.

type Json = Record<string, unknown>;
const ELECTRODES = ['positive', 'negative'] as const;
const cap = (e: string) => (e === 'positive' ? 'Positive' : 'Negative');

interface Entry {
  /** The element as a recipe gives it (ionworks-schema form where the client has one). */
  element: Json;
  produces: string[];
  reads: string[];
}

function catalog(): Entry[] {
  const out: Entry[] = [];
  for (const e of ELECTRODES) {
    out.push({
      element: {
        element_type: 'calculation',
        type: 'ElectrodeCapacity',
        electrode: e,
        use_stoich_window: false,
        method: 'auto',
      },
      produces: [`${cap(e)} electrode capacity [A.h]`],
      reads: [
        `Maximum concentration in ${e} electrode [mol.m-3]`,
        `${cap(e)} electrode active material volume fraction`,
        `${cap(e)} electrode thickness [m]`,
        'Electrode height [m]',
        'Electrode width [m]',
      ],
    });
    out.push({
      element: { element_type: 'calculation', type: 'electrode_volume_fraction', electrode: e },
      produces: [`${cap(e)} electrode active material volume fraction`],
      reads: [`${cap(e)} electrode thickness [m]`],
    });
  }
  out.push(
    {
      element: { element_type: 'calculation', type: 'AreaToSquareWidthHeight' },
      produces: ['Electrode height [m]', 'Electrode width [m]'],
      reads: ['Electrode area [m2]'],
    },
    {
      element: { element_type: 'calculation', type: 'cell_mass' },
      produces: ['Cell mass [kg]'],
      reads: ['Electrode height [m]', 'Electrode width [m]'],
    },
    {
      element: { element_type: 'calculation', type: 'initial_soc_from_voltage' },
      produces: ['Initial SOC [%]'],
      reads: [],
    },
  );
  return out;
}
const CATALOG = catalog();

/** The parameters an engine-form calculation element produces. */
export function calculationOutputs(cfg: Json): string[] {
  const e = cfg.electrode;
  switch (cfg.type) {
    case 'electrode_capacity':
      return [`${cap(e as string)} electrode capacity [A.h]`];
    case 'electrode_volume_fraction':
      return [`${cap(e as string)} electrode active material volume fraction`];
    case 'area_to_square_width_height':
      return ['Electrode height [m]', 'Electrode width [m]'];
    case 'cell_mass':
      return ['Cell mass [kg]'];
    case 'initial_soc_from_voltage':
      return ['Initial SOC [%]'];
    default:
      return [];
  }
}

/** Calculations producing `parameter`, each with the element to add and what it reads. */
export function calculationsProducing(parameter: string): Json[] {
  return CATALOG.filter((c) => c.produces.includes(parameter)).map((c) => ({
    ...c.element,
    name: String(c.element.type),
    produces: c.produces,
    reads: c.reads,
  }));
}
