package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.StageLatencyModel;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test helper: a P4 program of {@code programs/p4} compiled by rmtemu, and a run of a program
 * (P4 or its Java IR twin) on a switch: every departure (cycle, port, packet number), the drop
 * count, and the register arrays afterwards.
 */
final class P4Twins {
    static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private P4Twins() {
    }

    /** The text of {@code programs/p4/NAME}. */
    static String source(String name) {
        try (InputStream in = P4Twins.class.getResourceAsStream("/dev/rmtemu/programs/p4/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no P4 program " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The P4 program lowered, then placed on tofino1 by the compiler. */
    static StageProgram compile(String name) {
        return ProgramCompiler.compile(P4Programs.text(name, source(name), PreprocessorOptions.defaults()).require(), TOFINO1)
                .requireAccepted().program();
    }

    /** A replay's outcome. */
    record Run(SwitchEngine engine, List<Long> departures, long dropped) {
        /** Asserts that every register array of {@code twin} holds, in every pipe, what this run's holds. */
        void assertSameRegisters(Run other, StageProgram twin) {
            for (RegisterArray a : twin.registers()) {
                for (int pipe = 0; pipe < TOFINO1.pipes(); pipe++) {
                    assertArrayEquals(engine.state().snapshot(pipe, a.name()), other.engine.state().snapshot(pipe, a.name()),
                            a.name() + " lo, pipe " + pipe);
                    if (a.pair()) {
                        assertArrayEquals(engine.state().snapshotHi(pipe, a.name()),
                                other.engine.state().snapshotHi(pipe, a.name()), a.name() + " hi, pipe " + pipe);
                    }
                }
            }
        }

        void assertSameTraffic(Run other) {
            assertEquals(departures, other.departures, "departures (cycle, port, packet)");
            assertEquals(dropped, other.dropped, "drops");
        }
    }

    /** Replays {@code arrivals} (cycle, port, record) on a fresh tofino1 switch running {@code p}. */
    static Run run(StageProgram p, Consumer<SwitchEngine> control, List<Arrival> arrivals) {
        return run(TOFINO1, p, Backend.COMPILED, control, arrivals);
    }

    /** As above, the stage code run by back end {@code backend}. */
    static Run run(StageProgram p, Backend backend, Consumer<SwitchEngine> control, List<Arrival> arrivals) {
        return run(TOFINO1, p, backend, control, arrivals);
    }

    /** As {@link #run(StageProgram, Consumer, List)} on {@code profile} (tofino1 or a variant of it). */
    static Run run(TargetProfile profile, StageProgram p, Consumer<SwitchEngine> control, List<Arrival> arrivals) {
        return run(profile, p, Backend.COMPILED, control, arrivals);
    }

    /** As above, on {@code profile} with the stage code run by back end {@code backend}. */
    static Run run(TargetProfile profile, StageProgram p, Backend backend, Consumer<SwitchEngine> control, List<Arrival> arrivals) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(profile, p, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(40), true).withBackend(backend));
        control.accept(e);
        List<Long> departures = new ArrayList<>();
        // a listener the control installed still hears every departure
        DepartureListener installed = e.departureListener();
        e.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add(pool.packetNumber(slot));
            if (installed != null) {
                installed.departed(cycle, port, slot, pool);
            }
        });
        long base = e.now() + 1;
        for (Arrival a : arrivals) {
            e.arrive(base + a.cycle(), a.port(), a.record());
        }
        e.drain();
        return new Run(e, departures, e.counters().droppedTotal());
    }

    /** tofino1 with an ingress pipeline of at least {@code cycles} cycles (as its egress takes at least 160). */
    static TargetProfile tofino1WithMinIngress(int cycles) {
        TargetProfile t = TOFINO1;
        StageLatencyModel l = t.latency();
        StageLatencyModel padded = new StageLatencyModel(l.matchStageCycles(), l.statefulAluCycles(), l.tcamCycles(),
                l.actionDependentCycles(), l.concurrentCycles(), cycles, l.minEgressCycles(), l.parserCycles(),
                l.deparserCycles(), l.trafficManagerCycles());
        return new TargetProfile(t.name(), t.description(), t.stagesPerGress(), t.pipes(), t.portsPerPipe(), t.clockHz(),
                t.sram(), t.tcam(), t.statefulAlusPerStage(), t.registerWordBits(), t.registerCellWidths(),
                t.saluMaxConditions(), t.saluMaxBranchesPerWord(), t.templates(), t.hashFunctionsPerStage(),
                t.hashBitsPerFunction(), t.logicalTablesPerStage(), t.phvContainers(), padded, t.tmBufferBytes(),
                t.tmCellBytes(), t.recirculationGbps(), t.exactEntryOverheadBits(), t.fullArithmetic(), t.mau(), t.parser());
    }

    /** A packet arriving at a port, {@code cycle} cycles after the switch starts. */
    record Arrival(long cycle, int port, PacketRecord record) {
    }

    /** A record carrying a whole frame. */
    static PacketRecord record(byte[] frame) {
        PacketRecord r = PacketRecord.allocate(Math.max(frame.length, PacketRecord.DEFAULT_FRAME_CAPACITY));
        r.wireLength(frame.length);
        r.putFrame(frame, 0, frame.length);
        return r;
    }

    /**
     * Ethernet (MACs 02:03:.. and 12:13:..), then {@code shim} (a header under its own EtherType,
     * its first two bytes; none when empty), IPv4 (identification {@code ipId}, a valid header
     * checksum) and the flow's TCP or UDP ports, then {@code payload} zero bytes. A flow is
     * {src, dst, protocol, src port, dst port}.
     */
    static byte[] frame(int[] flow, byte[] shim, int ipId, int payload) {
        byte[] f = new byte[14 + shim.length + 20 + 8 + payload];
        for (int k = 0; k < 6; k++) {
            f[k] = (byte) (0x02 + k);
            f[6 + k] = (byte) (0x12 + k);
        }
        System.arraycopy(shim, 0, f, 12, shim.length);
        int at = 12 + shim.length;
        put(f, at, 0x0800, 2);
        int ip = at + 2;
        f[ip] = 0x45;
        put(f, ip + 2, f.length - ip, 2);
        put(f, ip + 4, ipId, 2);
        f[ip + 8] = 64;
        f[ip + 9] = (byte) flow[2];
        put(f, ip + 12, flow[0] & 0xFFFFFFFFL, 4);
        put(f, ip + 16, flow[1] & 0xFFFFFFFFL, 4);
        long sum = 0;
        for (int k = 0; k < 20; k += 2) {
            sum += ((f[ip + k] & 0xFF) << 8) | (f[ip + k + 1] & 0xFF);
        }
        while (sum > 0xFFFF) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        put(f, ip + 10, ~sum & 0xFFFF, 2);
        put(f, ip + 20, flow[3], 2);
        put(f, ip + 22, flow[4], 2);
        if (flow[2] == 6) {
            f[ip + 32] = 0x50; // TCP data offset: 5 words, no options
        } else {
            put(f, ip + 24, f.length - ip - 20, 2); // UDP length
        }
        return f;
    }

    /** Writes the {@code bytes} low bytes of {@code v} at {@code at}, most significant first. */
    static void put(byte[] f, int at, long v, int bytes) {
        for (int k = 0; k < bytes; k++) {
            f[at + k] = (byte) (v >>> (8 * (bytes - 1 - k)));
        }
    }

    /** Per-stage use of a placed program on tofino1, one line per stage that uses anything, then the pipeline latency per gress. */
    static List<String> stageUse(StageProgram p) {
        List<String> rows = new ArrayList<>();
        ResourceReport report = ResourceChecker.check(p, TOFINO1);
        for (StageUsage u : report.stages()) {
            if (u.sramBlocks() + u.tcamBlocks() + u.statefulAlus() + u.hashBits() + u.logicalTables() + u.gateways() == 0) {
                continue;
            }
            rows.add(u.gress().label() + " stage " + u.stage() + ": sram " + u.sramBlocks() + ", tcam " + u.tcamBlocks()
                    + ", salus " + u.statefulAlus() + ", hash bits " + u.hashBits() + ", logical tables "
                    + u.logicalTables() + ", gateways " + u.gateways() + ", map rams " + u.mapRams()
                    + ", stats alus " + u.statsAlus());
        }
        rows.add("latency " + report.pipelineLatencyCycles());
        return rows;
    }
}
