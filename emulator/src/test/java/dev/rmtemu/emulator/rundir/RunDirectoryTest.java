package dev.rmtemu.emulator.rundir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode inputs() {
        ObjectNode in = JSON.createObjectNode();
        in.put("program", "counter");
        in.put("trace", "gen:isp?packets=10");
        return in;
    }

    @Test
    void reportSaysIncompleteFromTheStartAndCompleteAtTheEnd(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        try (RunDirectory rd = RunDirectory.open(dir, false, inputs())) {
            assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(dir.resolve(RunDirectory.LOCK)).strip());
            JsonNode start = JSON.readTree(dir.resolve("report.json").toFile());
            assertEquals("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION + ",\"complete\":false,\"inputs\":{\"program\":\"counter\",\"trace\":\"gen:isp?packets=10\"},"
                    + "\"files\":[\"report.json\"]}", start.toString());
            rd.createJournal(new JournalKinds()).close();
            rd.plan(List.of("a.txt", "sub/b.txt"));
            assertEquals("[\"a.txt\",\"journal/\",\"report.json\",\"sub/b.txt\"]",
                    JSON.readTree(dir.resolve("report.json").toFile()).get("files").toString(), "planned before written");
            rd.writeString("a.txt", "A");
            rd.writeString("sub/b.txt", "B");
            ObjectNode end = JSON.createObjectNode();
            end.put("counters", 7);
            rd.finish(end, false, "SIGTERM");
        }
        assertEquals("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION
                        + ",\"complete\":false,\"interrupted_by\":\"SIGTERM\",\"counters\":7,"
                        + "\"files\":[\"a.txt\",\"journal/\",\"report.json\",\"sub/b.txt\"]}",
                JSON.readTree(dir.resolve("report.json").toFile()).toString());
        assertFalse(Files.exists(dir.resolve(RunDirectory.LOCK)));

        Files.writeString(dir.resolve("sub/user.txt"), "U");
        try (RunDirectory rd = RunDirectory.open(dir, false, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
        assertFalse(Files.exists(dir.resolve("a.txt")));
        assertFalse(Files.exists(dir.resolve("sub/b.txt")));
        assertFalse(Files.exists(dir.resolve("journal")));
        assertEquals("U", Files.readString(dir.resolve("sub/user.txt")));
    }

    @Test
    void aManifestCannotReachOutsideTheDirectory(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Files.createDirectories(dir);
        Files.writeString(tmp.resolve("victim.txt"), "safe");
        Files.writeString(dir.resolve("report.json"), "{\"files\":[\"../victim.txt\"]}");
        UserError e = assertThrows(UserError.class, () -> RunDirectory.open(dir, false, inputs()));
        assertTrue(e.getMessage().startsWith("run directory " + dir + ": not empty and not a run directory"), e.getMessage());
        assertEquals("safe", Files.readString(tmp.resolve("victim.txt")));
        try (RunDirectory rd = RunDirectory.open(dir, true, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
        assertEquals("safe", Files.readString(tmp.resolve("victim.txt")));
    }

    @Test
    void theEmptyPathIsRefusedEvenWithForce(@TempDir Path tmp) throws Exception {
        // Path.of("") is the working directory (a module's source tree under surefire): a run once landed there
        UserError e = assertThrows(UserError.class, () -> RunDirectory.open(Path.of(""), true, inputs()));
        assertEquals("run directory must not be empty (it would be the working directory)", e.getMessage());
        try (RunDirectory rd = RunDirectory.open(tmp.resolve("run"), true, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
    }
}
