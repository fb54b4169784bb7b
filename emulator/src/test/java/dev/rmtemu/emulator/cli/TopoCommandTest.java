package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.topology.TopologySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopoCommandTest {
    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void showsChainWithPathVconnsAndNeighbourhoods() {
        Result r = run("topo", "builtin:chain?regular=1", "--path", "h1_1,h2_1", "--vconns", "--neighborhoods",
                "--routes", "r1_1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("builtin:chain?regular=1: 2 programmable switches, 1 regular switches, 2 hosts, 4 links\n"),
                r.out());
        assertTrue(r.out().contains("routes r1_1:\n  10.0.1.1/32 h1_1 dist=2 ports=[1]\n  10.0.2.1/32 h2_1 dist=2 ports=[2]\n"),
                r.out());
        assertTrue(r.out().contains("path h1_1>1 - 1>m1>3 - 1>r1_1>2 - 2>m2>1 - 1>h2_1 links=[0, 1, 2, 3]\n"), r.out());
        assertTrue(r.out().contains("vconns: 2\n  m1 > r1_1 > m2 links=[1, 2]\n  m2 > r1_1 > m1 links=[2, 1]\n"), r.out());
        assertTrue(r.out().contains("neighborhoods: 1\n  0: switches=[r1_1] programmable=[m1, m2] hosts=[] links=[1, 2]\n"),
                r.out());
        assertEquals(r.out(), run("topo", "builtin:chain?regular=1", "--path", "h1_1,h2_1", "--vconns",
                "--neighborhoods", "--routes", "r1_1").out());
    }

    @Test
    void writesAFileThatReadsBackEqual(@TempDir Path dir) {
        Path file = dir.resolve("ft.yaml");
        Result r = run("topo", "builtin:fattree?k=4&programmable=edge", "--write", file.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(TopologySpec.parse("builtin:fattree?k=4&programmable=edge"), TopologySpec.parse(file.toString()));
    }

    @Test
    void badInputExitsTwoWithOneLine() {
        Result r = run("topo", "builtin:fattree?k=3");
        assertEquals(2, r.code());
        assertEquals("rmtemu: builtin:fattree?k=3: k=3 must be even\n", r.err());
        Result h = run("topo", "builtin:line", "--path", "h1,s1");
        assertEquals(2, h.code());
        assertEquals("rmtemu: builtin:line: 's1' is a switch, not a host\n", h.err());
        assertTrue(run("topo", "--help").out().contains("--vconns"));
    }
}
