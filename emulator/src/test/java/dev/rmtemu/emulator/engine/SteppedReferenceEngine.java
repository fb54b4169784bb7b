package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.DequeueInfo;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.emulator.tm.TrafficManager;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-only reference: the same switch stepped one cycle at a time, with
 * explicit per-cycle work lists instead of an event heap. Per cycle: packets
 * due at a parser join its FIFO (recirculated first, then from ports); each
 * pipe's parser takes at most one and runs its ingress pass; packets due at the
 * traffic manager are enqueued (pipe order, then parse order); every port whose
 * next packet may start does so (port order) and runs egress. Covers unicast,
 * drops and recirculation (not multicast, resubmit or packet generators).
 */
final class SteppedReferenceEngine {
    record Arrival(long cycle, int port, PacketRecord record) {
    }

    record Departure(long cycle, int port, long packet) {
    }

    record Drop(long packet, String cause) {
    }

    private static final class Pkt {
        final Phv phv;
        final PacketRecord rec;
        long number;
        long arrival;
        int port;
        long due;
        int pipe;

        Pkt(int slots, PacketRecord r) {
            phv = new Phv(slots);
            rec = PacketRecord.allocate();
            rec.copyFrom(r);
            FrameSynthesizer.attachFrame(rec);
        }
    }

    private final SwitchConfig cfg;
    private final TargetProfile profile;
    private final StageProgram program;
    final PipelineState state;
    private final PassExecutor exec;
    private final FrameParser frames;
    private final TrafficManager tm;
    private final CycleClock clock;
    private final int toTm;
    private final int toWire;
    private final int front;
    final List<Departure> departures = new ArrayList<>();
    final List<Drop> drops = new ArrayList<>();

    SteppedReferenceEngine(SwitchConfig cfg) {
        this.cfg = cfg;
        this.profile = cfg.profile();
        this.program = cfg.program();
        this.state = new PipelineState(program, profile.pipes());
        this.exec = new PassExecutor(state, cfg.enforce());
        this.frames = new FrameParser(program, profile.parser().windowBytes());
        this.tm = new TrafficManager(cfg.trafficManager());
        this.clock = new CycleClock(profile.clockHz());
        this.front = cfg.frontPanelPorts();
        ResourceReport rep = ResourceChecker.check(program, profile);
        var lat = profile.latency();
        int ig = rep.pipelineLatencyCycles().getOrDefault(Gress.INGRESS, lat.minIngressCycles());
        int eg = rep.pipelineLatencyCycles().getOrDefault(Gress.EGRESS, lat.minEgressCycles());
        this.toTm = lat.parserCycles() + ig + lat.deparserCycles() + lat.trafficManagerCycles();
        this.toWire = lat.parserCycles() + eg + lat.deparserCycles();
    }

    void run(List<Arrival> arrivals) {
        int slots = program.fields().size();
        List<Pkt> recircDue = new ArrayList<>();
        List<Pkt> tmDue = new ArrayList<>();
        @SuppressWarnings("unchecked")
        ArrayDeque<Pkt>[] fifo = new ArrayDeque[profile.pipes()];
        for (int i = 0; i < fifo.length; i++) {
            fifo[i] = new ArrayDeque<>();
        }
        Pkt[] handles = new Pkt[1 << 16];
        int nextHandle = 0;
        int ai = 0;
        long number = 0;
        DequeueInfo dq = new DequeueInfo();
        for (long t = 0; ; t++) {
            boolean busy = ai < arrivals.size() || !recircDue.isEmpty() || !tmDue.isEmpty() || tm.queuedPackets() > 0;
            for (ArrayDeque<Pkt> f : fifo) {
                busy |= !f.isEmpty();
            }
            if (!busy) {
                return;
            }
            // 1. arrivals join parser FIFOs: recirculated first, then from ports
            for (var it = recircDue.iterator(); it.hasNext(); ) {
                Pkt p = it.next();
                if (p.due == t) {
                    fifo[p.pipe].add(p);
                    it.remove();
                }
            }
            while (ai < arrivals.size() && arrivals.get(ai).cycle() == t) {
                Arrival a = arrivals.get(ai++);
                Pkt p = new Pkt(slots, a.record());
                p.number = number++;
                p.arrival = t;
                p.port = a.port();
                p.pipe = cfg.pipeOf(a.port());
                p.phv.clear();
                if (!frames.parse(p.rec.buffer().byteArray(), p.rec.offset() + PacketRecord.FRAME_OFFSET,
                        p.rec.capturedLength(), p.rec.wireLength(), p.phv.values())) {
                    drops.add(new Drop(p.number, "parser_error"));
                    continue;
                }
                fifo[p.pipe].add(p);
            }
            // 2. each parser takes one packet and runs its ingress pass
            for (int pipe = 0; pipe < fifo.length; pipe++) {
                Pkt p = fifo[pipe].poll();
                if (p == null) {
                    continue;
                }
                Phv phv = p.phv;
                phv.load(program.intrinsic(Intrinsic.INGRESS_PORT), p.port);
                Field ts = program.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
                if (ts != null) {
                    phv.load(ts, clock.cyclesToNs(p.arrival));
                }
                phv.load(program.intrinsic(Intrinsic.UCAST_EGRESS_PORT), PortNumbers.UNSET);
                phv.load(program.intrinsic(Intrinsic.DROP_CTL), 0);
                exec.run(phv, pipe, Gress.INGRESS, p.number);
                if (phv.get(program.intrinsic(Intrinsic.DROP_CTL)) != 0) {
                    drops.add(new Drop(p.number, SwitchEngine.DROP_INGRESS));
                    continue;
                }
                p.due = t + toTm;
                tmDue.add(p);
            }
            // 3. packets reaching the traffic manager: pipe order, then parse order
            List<Pkt> now = new ArrayList<>();
            for (var it = tmDue.iterator(); it.hasNext(); ) {
                Pkt p = it.next();
                if (p.due == t) {
                    now.add(p);
                    it.remove();
                }
            }
            now.sort((x, y) -> Integer.compare(x.pipe, y.pipe));
            for (Pkt p : now) {
                int out = (int) p.phv.get(program.intrinsic(Intrinsic.UCAST_EGRESS_PORT));
                int tmPort = out < front ? out
                        : PortNumbers.isRecirculation(out) && out - PortNumbers.RECIRCULATION_BASE < profile.pipes()
                        ? front + out - PortNumbers.RECIRCULATION_BASE : -1;
                if (tmPort < 0) {
                    drops.add(new Drop(p.number, SwitchEngine.DROP_NO_PORT));
                    continue;
                }
                int h = nextHandle++ & 0xFFFF;
                handles[h] = p;
                int code = tm.enqueue(t, tmPort, 0, h, p.rec.wireLength());
                if (code != DropCause.ADMITTED) {
                    drops.add(new Drop(p.number, tmPort >= front ? SwitchEngine.DROP_RECIRCULATION
                            : DropCause.fromCode(code).reportName()));
                }
            }
            // 4. ports start their next packet, in port order
            for (int port = 0; port < tm.portCount(); port++) {
                if (tm.nextDequeueCycle(port) > t) {
                    continue;
                }
                tm.dequeue(t, port, dq);
                Pkt p = handles[dq.packetHandle()];
                boolean recirc = port >= front;
                int portNumber = recirc ? PortNumbers.recirculationPort(port - front) : port;
                Phv phv = p.phv;
                phv.load(program.intrinsic(Intrinsic.EGRESS_PORT), portNumber);
                Field q = program.intrinsic(Intrinsic.ENQ_QDEPTH);
                if (q != null) {
                    phv.load(q, dq.enqQdepth());
                }
                Field ed = program.intrinsic(Intrinsic.EGRESS_DROP_CTL);
                if (ed != null) {
                    phv.load(ed, 0);
                }
                if (program.uses(Gress.EGRESS)) {
                    exec.run(phv, recirc ? port - front : cfg.pipeOf(port), Gress.EGRESS, p.number);
                }
                if (ed != null && phv.get(ed) != 0) {
                    drops.add(new Drop(p.number, SwitchEngine.DROP_EGRESS));
                    continue;
                }
                long dep = dq.serialisationEndCycle() + toWire;
                if (recirc) {
                    p.due = dep;
                    p.port = portNumber;
                    p.pipe = port - front;
                    long[] v = phv.values();
                    for (Field f : program.fields()) {
                        if (f.kind() != FieldKind.HEADER) {
                            v[f.slot()] = 0;
                        }
                    }
                    recircDue.add(p);
                } else {
                    departures.add(new Departure(dep, port, p.number));
                }
            }
        }
    }
}
