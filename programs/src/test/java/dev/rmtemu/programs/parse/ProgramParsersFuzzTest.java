package dev.rmtemu.programs.parse;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz target: every registered program's parser (its parse graph with the fields it loads,
 * as the switch runs it) over random and mutated bytes. Contract: a frame is accepted or a
 * parser error of a known kind, never an exception; an accepted frame whose fields the program
 * leaves as loaded deparses to a frame of the same length (only checksums may be rewritten).
 * Corpus: {@code src/test/resources/dev/rmtemu/programs/parse/ProgramParsersFuzzTestInputs/}.
 */
class ProgramParsersFuzzTest {
    private static final int WINDOW = 256;
    private static final List<StageProgram> PROGRAMS = programs();

    private static List<StageProgram> programs() {
        List<StageProgram> ps = new ArrayList<>();
        for (String name : ProgramPlugins.registry().all().keySet()) {
            ps.add(ProgramPlugins.registry().build(name, Map.of()));
        }
        return ps;
    }

    @FuzzTest(maxDuration = "10m")
    void everyProgramsParser(FuzzedDataProvider data) {
        StageProgram program = PROGRAMS.get(data.consumeInt(0, PROGRAMS.size() - 1));
        int lost = data.consumeInt(0, 64);
        byte[] frame = data.consumeRemainingAsBytes();
        FrameParser parser = new FrameParser(program, WINDOW);
        long[] phv = new long[program.fields().size()];
        int caplen = frame.length;
        if (parser.parse(frame, 0, caplen, caplen + lost, phv)) {
            int n = parser.deparse(frame, 0, caplen, caplen + lost, phv);
            assertEquals(caplen, n, program.name() + ": same headers, same length");
        } else {
            assertNotNull(parser.error());
            assertTrue(parser.error().ordinal() >= 0);
        }
    }
}
