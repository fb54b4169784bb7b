package dev.rmtemu.emulator.run;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Fuzz target: control files, applied to a fresh switch running {@code counter} (a
 * register array) or {@code l2fwd} (an exact table), byte 0 picking, then a packet
 * and the drain, so scheduled operations run too. Contract: applied, or a UserError
 * naming the file; nothing else, no hang, no token echoed whole.
 */
class ControlFileFuzzTest {
    /** Cells of the counter's array: small, so a fresh switch per input is cheap. */
    private static final String CELLS = "256";
    /** Cycle of the one packet: operations scheduled before it run, later ones are not applied. */
    private static final long PACKET_CYCLE = 10_000;
    /** Longest message a refusal may print: the path, a line number and cut tokens. */
    private static final int MAX_MESSAGE = 1000;
    private static TargetProfile profile;
    private static StageProgram[] programs;
    private static Path file;

    private static synchronized void setUp() throws IOException {
        if (file == null) {
            profile = TargetProfiles.builtIn("tofino1");
            ProgramRegistry registry = new ProgramRegistry();
            programs = new StageProgram[] {registry.build("counter", Map.of("cells", CELLS)),
                registry.build("l2fwd", Map.of())};
            Path dir = Files.createTempDirectory("rmtemu-fuzz-control");
            dir.toFile().deleteOnExit();
            file = dir.resolve("fuzz.ctl");
        }
    }

    @FuzzTest(maxDuration = "10m")
    void controlFile(byte[] input) throws IOException {
        setUp();
        if (input.length < 1) {
            return;
        }
        Files.write(file, Arrays.copyOfRange(input, 1, input.length));
        SwitchEngine engine = new SwitchEngine(SwitchConfig.of(profile, programs[(input[0] & 1)], 100));
        try {
            ControlScript.apply(file, engine);
            PacketRecord r = PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).dstIpv4(0x0A000002);
            engine.arrive(PACKET_CYCLE, 0, r);
            engine.drain();
        } catch (UserError e) {
            if (!e.getMessage().startsWith(file + ":")) {
                throw new AssertionError("refusal does not name the file: " + e.getMessage(), e);
            }
            if (e.getMessage().length() > MAX_MESSAGE) {
                throw new AssertionError("refusal of " + e.getMessage().length() + " characters: a token echoed whole");
            }
        }
    }
}
