package dev.rmtemu.model.target;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;

import java.nio.charset.StandardCharsets;

/**
 * Fuzz target: a target profile file's text, parsed, then every product the model
 * derives from it. Contract: a profile, or a UserError naming the file; nothing
 * else (no ArithmeticException, no overflowed count), no hang.
 */
class TargetProfileFuzzTest {
    static final String NAME = "fuzz-profile.json";

    @FuzzTest(maxDuration = "10m")
    void profileFile(byte[] input) {
        try {
            TargetProfile p = TargetProfiles.parse(new String(input, StandardCharsets.UTF_8), NAME);
            if (p.phvBits() < 0 || p.hashBitsPerStage() < 0 || p.maxCellWidth() < 1 || p.sram().bitsPerBlock() < 1
                    || p.tcam().bitsPerBlock() < 1 || p.tmBufferBytes() / p.tmCellBytes() < 1) {
                throw new AssertionError("accepted a profile with a meaningless product: " + p);
            }
        } catch (UserError e) {
            if (!e.getMessage().startsWith(NAME + ": ")) {
                throw new AssertionError("refusal does not name the file: " + e.getMessage(), e);
            }
        }
    }
}
