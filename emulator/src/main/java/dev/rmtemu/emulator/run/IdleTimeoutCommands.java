package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.CycleClock;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;

import java.util.List;

/**
 * bmv2 runtime_CLI's {@code table_set_timeout TABLE HANDLE MS}: gives an entry the script added
 * (its handle as {@code table_add} gave it) a TTL of MS milliseconds, counted from the line's
 * cycle (0 before the run). The table must declare an idle timeout ({@code idle_timeout = true},
 * or the IR's {@code TableOptions}); the entry is then reported aged out by the idle-time sweep
 * ({@link IdleSweep}) once it goes a TTL without a hit.
 */
final class IdleTimeoutCommands {
    static final String USAGE = "table_set_timeout TABLE HANDLE MS";
    /** The longest TTL bmv2 takes (an unsigned 32-bit count of ms). */
    private static final long MAX_TTL_MS = 0xFFFF_FFFFL;
    private static final long NS_PER_MS = 1_000_000L;

    private IdleTimeoutCommands() {
    }

    static ControlCommand.Effect setTimeout(SwitchControl sw, List<String> args, String where, long cycle) {
        TableCommands.exactly(args, 3, USAGE);
        MatchTable t = ProgramNames.table(sw.program(), args.get(0));
        if (t.options().idleTimeout() == null) {
            throw new UserError("table " + t.name() + " declares no idle timeout (idle_timeout = true): its entries have no TTL");
        }
        TableEntry e = sw.handles(t).get(args.get(1));
        String ms = args.get(2);
        if (!ms.matches("[0-9]{1,10}") || Long.parseLong(ms) == 0 || Long.parseLong(ms) > MAX_TTL_MS) {
            throw new UserError("TTL '" + ms + "' is not a number of milliseconds (1.." + MAX_TTL_MS + ")");
        }
        long ttlNs = Long.parseLong(ms) * NS_PER_MS;
        CycleClock clock = sw.engine().clock();
        long fromNs = clock.cyclesToNs(cycle);
        return s -> {
            TableState ts = s.table(t);
            int handle = e.handle(ts);
            ts.aging().setTtl(handle, ttlNs, fromNs);
        };
    }
}
