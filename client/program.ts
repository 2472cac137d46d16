import { Command } from 'commander';
import { type CliContext, type Runner, processContext } from './commands/context';
import { registerAnalysisCommands } from './commands/analysis';
import { registerGatewayCommands } from './commands/gateway';
import { registerAuditCommands } from './commands/audit';
import { registerKeysCommands } from './commands/keys';
import { registerAgentsCommands } from './commands/agents';
import { registerEventsCommands } from './commands/events';
import { registerRequestsCommands } from './commands/requests';
import { registerRunsCommands } from './commands/runs';
import { registerReplayCommand } from './commands/replay';
import { registerCostsCommand } from './commands/costs';
import { registerQueuesCommand } from './commands/queues';
import { registerFactsCommand } from './commands/facts';

/**
 * The operator and reviewer CLI (`npm run cli -- …`, bin `countersign`). Each command group
 * registers itself from client/commands/<group>.ts; a new group is one file and one line here.
 */
export function buildProgram(makeContext: (json: boolean) => CliContext = processContext): Command {
  const program = new Command('countersign')
    .description(
      'Countersign operator CLI. Commands that act for someone act as the holder of the API key in CS_API_KEY or CS_API_KEY_FILE (never an argument).',
    )
    .option('--json', 'print reads as JSON (and no progress bars)')
    .showHelpAfterError()
    // Throw instead of exiting (inherited by every subcommand registered below): cli.ts picks
    // the exit code, and tests run the program in-process.
    .exitOverride()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });

  const run: Runner =
    (fn) =>
    async (...args) => {
      const ctx = makeContext(program.opts<{ json?: boolean }>().json === true);
      try {
        await fn(ctx, ...args);
      } finally {
        await ctx.close();
      }
    };

  registerAnalysisCommands(program, run);
  registerGatewayCommands(program, run);
  registerAuditCommands(program, run);
  registerKeysCommands(program, run);
  registerAgentsCommands(program, run);
  registerEventsCommands(program, run);
  registerRequestsCommands(program, run);
  registerRunsCommands(program, run);
  registerReplayCommand(program, run);
  registerCostsCommand(program, run);
  registerQueuesCommand(program, run);
  registerFactsCommand(program, run);
  return program;
}
