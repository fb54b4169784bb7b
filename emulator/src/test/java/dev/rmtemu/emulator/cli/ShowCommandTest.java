package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rmtemu show}: a program as P4-like text, exact for l2fwd. */
class ShowCommandTest {
    @Test
    void l2fwdReadsLikeItsP4Control() {
        CliRunner r = CliRunner.run("show", "--program", "l2fwd");
        assertEquals(0, r.exit(), r.err());
        assertEquals(""
                + "// l2fwd: exact-match forwarding table on the destination MAC address; action data = egress port; miss drops\n"
                + "// parameters: entries=4096\n"
                + "\n"
                + "struct phv_t {\n"
                + "    bit<9> ig_intr_md.ingress_port;         // intrinsic, ingress\n"
                + "    bit<9> ig_intr_tm_md.ucast_egress_port; // intrinsic, ingress\n"
                + "    bit<3> ig_intr_dprsr_md.drop_ctl;       // intrinsic, ingress\n"
                + "    bit<9> eg_intr_md.egress_port;          // intrinsic, egress\n"
                + "    bit<48> ethernet.dst_addr;              // header, parsed: ethernet.dst_addr\n"
                + "}\n"
                + "\n"
                + "control Ingress {\n"
                + "    stage 0 {\n"
                + "        table l2_fwd { key = { ethernet.dst_addr: exact } size = 4096; action data 9 b }\n"
                + "        apply {\n"
                + "            switch (l2_fwd.apply().action) {\n"
                + "                action 1: {\n"
                + "                    ig_intr_tm_md.ucast_egress_port = l2_fwd.action_data;\n"
                + "                }\n"
                + "                miss: {\n"
                + "                    ig_intr_dprsr_md.drop_ctl = 1;\n"
                + "                }\n"
                + "            }\n"
                + "        }\n"
                + "    }\n"
                + "}\n", r.out());
    }

    @Test
    void registerActionsShowTheirConditionsUpdatesAndOutput() {
        CliRunner r = CliRunner.run("show", "--program", "counter", "--param", "cells=16");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("""
                        RegisterAction(flow_count) flow_count.increment {  // RAW
                            lo = lo + 1;
                            output = new lo;
                        }
                        apply {
                            flow_count.increment.execute(flow_hash.get(), in_lo = 0, in_hi = 0);
                            meta.flow_count = flow_count.increment.output;
                """), r.out());
    }

    @Test
    void anUnknownProgramIsOneLine() {
        CliRunner r = CliRunner.run("show", "--program", "nosuch");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("rmtemu: unknown program 'nosuch'"), r.err());
    }
}
