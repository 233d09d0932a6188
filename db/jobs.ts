// SQL fragments of job state shared by the API and the activities.

export const CANCELED_ON_REQUEST = 'canceled on request';
/** The SET clause that ends a job canceled. */
export const JOB_CANCELED =
  `status = 'canceled', error = '${CANCELED_ON_REQUEST}', updated_at = now(), ` + `finished_at = now()`;
