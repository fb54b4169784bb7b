package dev.rmtemu.traces.spec;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;

import java.nio.charset.StandardCharsets;

/**
 * Fuzz target: generator specs ({@code gen:KIND?key=value&...}) as a user types them,
 * opened and read for a few hundred packets. Contract: accepted, or a UserError whose
 * message starts with the spec; nothing else, no hang, bounded memory (a spec asking
 * for millions of flows must not allocate them all up front).
 */
class GeneratorSpecFuzzTest {
    /** Packets read per accepted spec: enough to run every generator's first flows. */
    private static final int PACKETS_READ = 256;

    @FuzzTest(maxDuration = "10m")
    void generatorSpec(byte[] input) {
        String spec = TraceSpec.GENERATOR_PREFIX + new String(input, StandardCharsets.UTF_8);
        PacketRecord r = PacketRecord.allocate();
        try (PacketSource src = TraceSpec.open(spec)) {
            for (int n = 0; n < PACKETS_READ && src.next(r); n++) {
                // generated
            }
        } catch (UserError e) {
            String named = spec.substring(0, Math.min(spec.length(), TraceSpec.MAX_SPEC_ECHO));
            if (!e.getMessage().startsWith(named)) {
                throw new AssertionError("refusal does not name the spec: " + e.getMessage(), e);
            }
        }
    }
}
