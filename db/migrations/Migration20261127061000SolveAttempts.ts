import { Migration } from '@mikro-orm/migrations';

// How many retried chunks have started solving a simulation: a point whose solve kills its
// worker (a crash in the solver) would otherwise be retried for ever. A chunk retried after its
// worker died counts each point it begins; the third is failed with WORKER_ERROR unsolved.
export class Migration20261127061000SolveAttempts extends Migration {
  override name = 'Migration20261127061000SolveAttempts';

  up(): void {
    this.addSql(`alter table simulations add column solve_attempts smallint not null default 0`);
  }

  override down(): void {
    this.addSql(`alter table simulations drop column solve_attempts`);
  }
}
