package dev.rmtemu.emulator.engine;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.function.BooleanSupplier;
import dev.rmtemu.emulator.metrics.Counters;
import dev.rmtemu.emulator.metrics.LatencyMetrics;
import dev.rmtemu.emulator.tm.DequeueInfo;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.emulator.tm.TrafficManager;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.phv.ProgramPorts;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.extern.Digest;
import dev.rmtemu.model.extern.Mirror;
import dev.rmtemu.model.extern.Resubmit;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.StageLatencyModel;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One switch on the event-driven timeline. A packet's path, in cycles of the
 * target clock:
 * <pre>
 * arrival a -> parser slot p = max(a, parser free)      (one packet per pipe per cycle, FIFO)
 *   ingress pass runs (all stages, at once) with stamps from p
 *   -> traffic manager at p + parser + ingress pipeline + deparser + TM traversal (ENQUEUE event)
 *   -> dequeue d when the port is free (DEQUEUE event), egress pass runs
 *   -> departure = end of serialisation + parser + egress pipeline + deparser
 * </pre>
 * Same-cycle events run in {@link EventQueue.Phase} order, then in scheduling
 * order. Because stages are in order and feed forward, running a whole pass at
 * one event gives the same results as stepping every cycle (the test suite
 * checks this against a cycle-stepped reference). Single-threaded.
 */
public final class SwitchEngine {
    static final int EV_PORT_ARRIVAL = 1;
    static final int EV_RECIRC_ARRIVAL = 2;
    static final int EV_CONTROL = 5;
    static final int EV_GENERATOR = 6;

    /** Tofino allows one resubmission per packet. */
    public static final int MAX_RESUBMITS = 1;

    /**
     * The bit of TNA's drop_ctl that drops the packet (bit 1 disables digests, bit 2 mirroring);
     * the deparser acts on the pass's last value, so a later write of 0 cancels a drop.
     */
    private static final long DROP_CTL_DROP = 1;
    public static final String DROP_INGRESS = "ingress_drop_ctl";
    public static final String DROP_EGRESS = "egress_drop_ctl";
    public static final String DROP_NO_PORT = "no_egress_port";
    /**
     * Packet slots (PHV and record) a switch starts with; the pool doubles as packets pile
     * up, so a switch of a large network that sees few packets stays small.
     */
    public static final int INITIAL_POOL_SLOTS = 16;
    /** Drop cause of a router (regular switch) for a packet whose TTL / hop limit ran out. */
    public static final String DROP_TTL_EXPIRED = "ttl_expired";
    private static final int IPV4 = 4;
    private static final int IPV6 = 6;
    public static final String DROP_RESUBMIT = "resubmit_limit";
    /** Drop cause of a multicast packet that got no copy (its groups unprogrammed, empty or pruned). */
    public static final String DROP_MULTICAST_NO_COPY = "multicast_no_copy";
    /** Drop cause of a mirrored copy whose session is 0 or was never set up (mirroring_add). */
    public static final String DROP_MIRROR_SESSION = "mirror_no_session";
    /** drop_ctl bit 2: the deparser makes no mirrored copy of the packet (TNA's drop_ctl: bit 0 drop, bit 2 disable mirroring). */
    static final long DROP_CTL_NO_MIRROR = 0b100;
    public static final String DROP_RECIRCULATION = "recirculation_overflow";
    /**
     * Drop cause of a packet the traffic manager holds for, or would queue to, a port whose link
     * is down ({@link #portDown}): Tofino's TM flushes a down port's queues.
     */
    public static final String DROP_PORT_DOWN = "tm_port_down_flush";

    /** A control-plane operation applied at a set cycle. */
    @FunctionalInterface
    public interface ControlOp {
        void apply(PipelineState state, long cycle);
    }

    private final SwitchConfig config;
    /** The program's bridged header: buffered with every packet it sends through the traffic manager. */
    private final int bridgedBytes;
    private final TargetProfile profile;
    private final StageProgram program;
    private final ResourceReport resources;
    /** What the compiler accepted but the author probably did not mean (RunWarnings prints them). */
    private final List<String> compilerWarnings;
    private final PipelineState state;
    private final PassExecutor executor;
    private final HeaderParser parser;
    /** The program's parse graph over each frame's bytes, and its deparser. */
    private final FrameParser frames;
    /** Whether the program declares fields of its parse graph: only then can a write change the frame. */
    private final boolean framesWritable;
    private final TrafficManager tm;
    private final PacketPool pool;
    private final EventQueue events = new EventQueue();
    private final QueueDepthTimeline timeline = new QueueDepthTimeline();
    /** Per egress port (front panel, then recirculation), made when the port first queues: the report's plot. */
    private QueueDepthTimeline[] portTimelines = new QueueDepthTimeline[0];
    /** Bits that left front-panel ports (frame + preamble and gap) and packets dropped, over time (report.html). */
    private final RateTimeline departedBits = new RateTimeline();
    private final RateTimeline droppedPackets = new RateTimeline();
    private final EnqueueLanes lanes;
    private final Counters counters = new Counters();
    private final LatencyMetrics metrics;
    private final CycleClock clock;
    private final DequeueInfo dq = new DequeueInfo();
    private final long[] parserFree;
    private final DequeueCalendar dequeues;
    private final int[] metadataSlots;
    private final int ingressToTm;
    private final int egressToWire;
    private final int frontPorts;
    /** Pipe of each front-panel port (the profile's mapping, looked up rather than divided per packet). */
    private final int[] portPipe;
    private final int parserCycles;
    private final boolean hasEgress;
    private final int tmPorts;
    private final Field fIngressPort;
    /** The program's port numbers (TNA's PortId_t for a P4 program): every port value the PHV holds is the program's. */
    private final ProgramPorts ports;
    private final Field fIngressTstamp;
    private final Field fIngressGlobalTstamp;
    private final Field fEgressPortOut;
    private final Field fQid;
    private final Field fMcast;
    private final Field fMcastB;
    private final Field fL1Xid;
    private final Field fL2Xid;
    private final Field fRid;
    private final Field fEgressRid;
    private final Field fDrop;
    private final Field fResubmit;
    /** TNA's ig_intr_md.resubmit_flag (null when the program never reads it). */
    private final Field fResubmitFlag;
    /** Whether the ingress parser rejects every resubmitted packet (its resubmit branch transitions to reject). */
    private final boolean resubmittedRejected;
    /** The resubmit headers by resubmit_type (null: the program declares none). */
    private final Resubmit[] resubmitByType;
    /** TNA's ig_intr_tm_md.bypass_egress (null when the program never writes it). */
    private final Field fBypassEgress;
    private final Field fEgressPort;
    private final Field fEgressQid;
    private final Field fEnqQdepth;
    private final Field fEnqTstamp;
    private final Field fDeqQdepth;
    private final Field fDeqTimedelta;
    private final Field fGlobalTstamp;
    private final Field fPktLength;
    private final Field fEgressDrop;
    private final int causeIngress;
    private final int causeEgress;
    private final int causeNoPort;
    private final int causeResubmit;
    private final int causeRecirc;
    private final int[] causeTm;
    private final List<ControlOp> controlOps = new ArrayList<>();
    /** Indexes into controlOps of the operations applied only within the run ({@link #scheduleControlWithinRun}). */
    private final BitSet withinRun = new BitSet();
    /** Within-run operations still in the heap: when they are all that is left, the run is over. */
    private int pendingWithinRun;
    private final List<ControlOp> controlOpsNotApplied = new ArrayList<>();
    /** Whether the run has had its last event; a network widens it to every switch. */
    private BooleanSupplier runOver = () -> this.draining && onlyWithinRunOpsPending();
    private final List<Generator> generators = new ArrayList<>();
    /** The packet replication engine's groups and prune table. */
    private final ReplicationEngine pre = new ReplicationEngine();
    /** Whether the program names a multicast tree (mcast_grp_a or _b); only then is the no-copy cause registered. */
    private final boolean multicasts;
    private final int causeNoCopy;
    private DepartureListener listener = (c, p, s, pool) -> { };
    /** Captures and the packet log (null: neither is on, and the engine reports nothing). */
    private PacketTap tap;
    /** The learning digests by digest_type (null: the program has none), where they go, and how many were sent. */
    private final Digest[] digestByType;
    private final Field fDigestType;
    private final long ingressToDeparsed;
    private DigestSink digestSink;
    private long digestsSent;
    /** The deparsers' mirrors by mirror_type (null: the gress mirrors nothing), and the sessions' ports and lengths. */
    private final Mirror[] ingressMirrors;
    private final Mirror[] egressMirrors;
    private final Field fMirrorType;
    private final Field fEgressMirrorType;
    /** Mirror sessions' ports (-1: not set up) and maximum lengths; made at the first session, as most switches mirror nothing. */
    private int[] sessionPort;
    private int[] sessionMaxLength;
    private final long[] mirrorValues;
    /** Mirrors by {@link #mirrorKey}: which one made a copy, whose header its egress parser reads. */
    private final Mirror[] mirrorByKey;
    /**
     * What a copy's egress parser starts afresh: egress metadata and the bridged header (a copy
     * carries its mirror header instead of the bridged one).
     */
    private final int[] copyEgressFreshSlots;
    /** A mirror header the copy's egress parser does not read, set aside while egress deparses the packet behind it. */
    private final byte[] mirrorHeaderAside;
    private final long tmCycles;
    private final int causeMirrorSession;
    /** Per traffic-manager port, whether its link is down (only front-panel ports go down). */
    private final boolean[] linkDown;
    /** The port-down drop cause, registered when a port first goes down (-1 until then). */
    private int causePortDown = -1;
    private final DequeueInfo flushed = new DequeueInfo();
    private ForwardingTable forwarding;
    private boolean routerTtl;
    private int causeTtl;
    private long nextPacketNumber;
    private boolean replicating;
    /**
     * Whether a packet finding its port empty skips its queue when its dequeue would be the next
     * event ({@link #cutThrough(boolean)}).
     */
    private boolean cutThrough = true;
    private long cutThroughPackets;
    private boolean draining;
    private long lastArrival;
    private long now;

    private record Generator(int pipe, long periodCycles, long count, Consumer<PacketRecord> template, boolean untilInputEnds) {
    }

    /** Frame bytes each packet in this switch keeps (the snap length). */
    public int frameCapacity() {
        return pool.frameCapacity();
    }

    /** A switch whose packets keep the profile's parser window of frame bytes. */
    public SwitchEngine(SwitchConfig config) {
        this(config, config.profile().parser().windowBytes());
    }

    /**
     * A switch whose packet pool keeps {@code frameCapacity} bytes of each frame (the replay's
     * snap length; a longer frame is kept truncated, with its wire length).
     */
    public SwitchEngine(SwitchConfig config, int frameCapacity) {
        this.config = config;
        this.bridgedBytes = config.program().bridgedBytes();
        this.profile = config.profile();
        this.program = config.program();
        // every hardware rule is checked before the first packet; a refusal names each broken rule
        Compilation compiled = ProgramCompiler.compile(program, profile).requireAccepted();
        this.resources = compiled.resources();
        this.compilerWarnings = compiled.warningLines();
        this.state = new PipelineState(program, profile.pipes());
        this.executor = new PassExecutor(state, config.enforce(), config.backend());
        this.parser = new HeaderParser(program);
        this.frames = new FrameParser(program, profile.parser().windowBytes());
        this.framesWritable = frames.loadsFields();
        this.tm = new TrafficManager(config.trafficManager());
        this.pool = new PacketPool(program.fields().size(), INITIAL_POOL_SLOTS, frameCapacity);
        this.clock = new CycleClock(profile.clockHz());
        this.frontPorts = config.frontPanelPorts();
        this.ports = ProgramPorts.of(profile.pipes(), profile.portsPerPipe(), program.tnaPorts());
        this.portPipe = new int[frontPorts];
        for (int p = 0; p < frontPorts; p++) {
            portPipe[p] = config.pipeOf(p);
        }
        this.parserCycles = profile.latency().parserCycles();
        this.hasEgress = program.uses(Gress.EGRESS);
        this.tmPorts = frontPorts + profile.pipes();
        this.linkDown = new boolean[tmPorts];
        this.metrics = new LatencyMetrics(profile.clockHz(), tmPorts, config.port().queues());
        this.parserFree = new long[profile.pipes()];
        this.lanes = new EnqueueLanes();
        this.dequeues = new DequeueCalendar(tmPorts);
        StageLatencyModel lat = profile.latency();
        this.ingressToTm = lat.parserCycles() + gressLatency(Gress.INGRESS) + lat.deparserCycles() + lat.trafficManagerCycles();
        this.egressToWire = lat.parserCycles() + gressLatency(Gress.EGRESS) + lat.deparserCycles();
        this.ingressToDeparsed = ingressToTm - lat.trafficManagerCycles();
        this.tmCycles = lat.trafficManagerCycles();
        List<Integer> meta = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.kind() != FieldKind.HEADER) {
                meta.add(f.slot());
            }
        }
        this.metadataSlots = meta.stream().mapToInt(Integer::intValue).toArray();
        fIngressPort = program.intrinsic(Intrinsic.INGRESS_PORT);
        fIngressTstamp = program.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
        fIngressGlobalTstamp = program.intrinsic(Intrinsic.INGRESS_GLOBAL_TSTAMP);
        fEgressPortOut = program.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        fQid = program.intrinsic(Intrinsic.QID);
        fMcast = program.intrinsic(Intrinsic.MCAST_GRP);
        fMcastB = program.intrinsic(Intrinsic.MCAST_GRP_B);
        fL1Xid = program.intrinsic(Intrinsic.LEVEL1_EXCLUSION_ID);
        fL2Xid = program.intrinsic(Intrinsic.LEVEL2_EXCLUSION_ID);
        fRid = program.intrinsic(Intrinsic.RID);
        fEgressRid = program.intrinsic(Intrinsic.EGRESS_RID);
        multicasts = fMcast != null || fMcastB != null;
        fDrop = program.intrinsic(Intrinsic.DROP_CTL);
        fResubmit = program.intrinsic(Intrinsic.RESUBMIT);
        fResubmitFlag = program.intrinsic(Intrinsic.RESUBMIT_FLAG);
        resubmittedRejected = program.parser().graph().resubmittedRejected();
        if (program.resubmits().isEmpty()) {
            resubmitByType = null;
        } else {
            resubmitByType = new Resubmit[Resubmit.MAX_TYPE + 1];
            for (Resubmit r : program.resubmits()) {
                resubmitByType[r.type()] = r;
            }
        }
        fDigestType = program.intrinsic(Intrinsic.DIGEST_TYPE);
        fMirrorType = program.intrinsic(Intrinsic.MIRROR_TYPE);
        fEgressMirrorType = program.intrinsic(Intrinsic.EGRESS_MIRROR_TYPE);
        ingressMirrors = mirrorsOf(program.mirrors(), Gress.INGRESS);
        egressMirrors = mirrorsOf(program.mirrors(), Gress.EGRESS);
        int widest = 0;
        for (Mirror m : program.mirrors()) {
            widest = Math.max(widest, m.fields().size());
        }
        mirrorValues = new long[widest];
        mirrorByKey = new Mirror[2 * (Mirror.MAX_TYPE + 1)];
        int widestHeader = 0;
        for (Mirror m : program.mirrors()) {
            mirrorByKey[mirrorKey(m)] = m;
            widestHeader = Math.max(widestHeader, m.headerBytes());
        }
        mirrorHeaderAside = new byte[widestHeader];
        List<Integer> fresh = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.isBridged() || f.kind() == FieldKind.METADATA && f.gress() == Gress.EGRESS) {
                fresh.add(f.slot());
            }
        }
        copyEgressFreshSlots = fresh.stream().mapToInt(Integer::intValue).toArray();
        if (program.digests().isEmpty()) {
            digestByType = null;
        } else {
            digestByType = new Digest[Digest.MAX_TYPE + 1];
            for (Digest dg : program.digests()) {
                digestByType[dg.type()] = dg;
            }
        }
        fBypassEgress = program.intrinsic(Intrinsic.BYPASS_EGRESS);
        fEgressPort = program.intrinsic(Intrinsic.EGRESS_PORT);
        fEgressQid = program.intrinsic(Intrinsic.EGRESS_QID);
        fEnqQdepth = program.intrinsic(Intrinsic.ENQ_QDEPTH);
        fEnqTstamp = program.intrinsic(Intrinsic.ENQ_TSTAMP);
        fDeqQdepth = program.intrinsic(Intrinsic.DEQ_QDEPTH);
        fDeqTimedelta = program.intrinsic(Intrinsic.DEQ_TIMEDELTA);
        fGlobalTstamp = program.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        fPktLength = program.intrinsic(Intrinsic.PKT_LENGTH);
        fEgressDrop = program.intrinsic(Intrinsic.EGRESS_DROP_CTL);
        causeIngress = counters.dropCause(DROP_INGRESS);
        causeEgress = counters.dropCause(DROP_EGRESS);
        causeNoPort = counters.dropCause(DROP_NO_PORT);
        causeResubmit = counters.dropCause(DROP_RESUBMIT);
        causeMirrorSession = program.mirrors().isEmpty() ? -1 : counters.dropCause(DROP_MIRROR_SESSION);
        causeNoCopy = multicasts ? counters.dropCause(DROP_MULTICAST_NO_COPY) : -1;
        causeRecirc = counters.dropCause(DROP_RECIRCULATION);
        causeTm = new int[DropCause.values().length + 1];
        for (DropCause c : DropCause.values()) {
            causeTm[c.code()] = counters.dropCause(c.reportName());
        }
    }

    /** Pipeline cycles of a gress; an unused gress still takes the target's minimum. */
    private int gressLatency(Gress g) {
        Integer c = resources.pipelineLatencyCycles().get(g);
        if (c != null) {
            return c;
        }
        return g == Gress.INGRESS ? profile.latency().minIngressCycles() : profile.latency().minEgressCycles();
    }

    // ------------------------------------------------------------------ configuration

    public void onDeparture(DepartureListener l) {
        this.listener = l;
    }

    private static Mirror[] mirrorsOf(List<Mirror> mirrors, Gress g) {
        Mirror[] byType = null;
        for (Mirror m : mirrors) {
            if (m.gress() == g) {
                if (byType == null) {
                    byType = new Mirror[Mirror.MAX_TYPE + 1];
                }
                byType[m.type()] = m;
            }
        }
        return byType;
    }

    /**
     * Mirror session {@code session} (1..{@value Mirror#MAX_SESSION}) sends its copies to front-panel
     * port {@code port}, truncated to {@code maxLength} bytes (0: whole), as bmv2's
     * {@code mirroring_add} and Tofino's session max_pkt_len configure it.
     */
    public void mirrorSession(int session, int port, int maxLength) {
        if (session < 1 || session > Mirror.MAX_SESSION) {
            throw new UserError("mirror session " + session + " outside 1.." + Mirror.MAX_SESSION);
        }
        if (maxLength < 0) {
            throw new UserError("mirror session " + session + ": maximum length " + maxLength + " is negative");
        }
        checkPort(port);
        if (sessionPort == null) {
            sessionPort = new int[Mirror.MAX_SESSION + 1];
            sessionMaxLength = new int[Mirror.MAX_SESSION + 1];
            Arrays.fill(sessionPort, -1);
        }
        sessionPort[session] = port;
        sessionMaxLength[session] = maxLength;
    }

    /**
     * Front-panel port {@code port}'s link goes down, after this cycle's packets: the traffic
     * manager flushes the packets queued to it (each dropped now as {@value #DROP_PORT_DOWN},
     * highest queue first, in queue order) and drops as such every packet it would queue to the
     * port until {@link #portUp}; a packet already on the wire finishes. Arrivals on the port
     * are still received.
     *
     * @return whether the link was up (false: it was already down and nothing changes)
     */
    public boolean portDown(int port) {
        checkPort(port);
        if (linkDown[port]) {
            return false;
        }
        if (causePortDown < 0) {
            causePortDown = counters.dropCause(DROP_PORT_DOWN);
        }
        linkDown[port] = true;
        if (tm.portDepthPackets(port) > 0) {
            while (tm.flushHead(port, flushed) != TrafficManager.NOTHING_DEQUEUED) {
                drop(flushed.packetHandle(), causePortDown, port, flushed.qid());
            }
            timeline.record(now, tm.bufferOccupancyCells());
            portTimeline(port).record(now, 0);
        }
        return true;
    }

    /**
     * Front-panel port {@code port}'s link comes up, after this cycle's packets: the traffic
     * manager queues packets to it again.
     *
     * @return whether the link was down (false: it was already up)
     */
    public boolean portUp(int port) {
        checkPort(port);
        boolean wasDown = linkDown[port];
        linkDown[port] = false;
        return wasDown;
    }

    /** Whether front-panel port {@code port}'s link is down ({@link #portDown}). */
    public boolean isPortDown(int port) {
        checkPort(port);
        return linkDown[port];
    }

    /** Hands every learning digest the ingress deparser sends from now on to {@code sink} (null: nobody). */
    public void onDigest(DigestSink sink) {
        this.digestSink = sink;
    }

    /** Whether the ingress deparser's learning digests go somewhere (a network then keeps the switch on one thread, in event order). */
    public boolean sendsDigests() {
        return digestSink != null;
    }

    /** Learning digests the ingress deparser sent so far. */
    public long digestsSent() {
        return digestsSent;
    }

    /** Tells {@code t} of every packet that leaves or is dropped from now on (null: nobody). */
    public void tap(PacketTap t) {
        this.tap = t;
    }

    /**
     * Whether a control operation or a packet generator was ever scheduled: code from outside the
     * packet path runs in this switch's event loop (a network then runs its switches on one thread).
     */
    public boolean hasControlEvents() {
        return !controlOps.isEmpty() || !generators.isEmpty();
    }

    /** The current departure listener (a control plane chains its own before it, e.g. in a network). */
    public DepartureListener departureListener() {
        return listener;
    }

    /** Routing consulted when the program does not choose an egress port (topology switches). */
    public void forwarding(ForwardingTable table) {
        this.forwarding = table;
    }

    /**
     * Makes this switch a router (a topology's regular switch): an IPv4 packet's TTL (its
     * header checksum updated) or an IPv6 packet's hop limit is decremented in the frame on the
     * way out, and a packet whose TTL would
     * reach 0 (it arrives with 1) is dropped as {@value #DROP_TTL_EXPIRED}, so a forwarding
     * loop ends. A record with TTL 0 carries none (a hand-built packet; captures and the
     * generators always set one) and passes unchanged; the network's hop budget bounds it.
     */
    public void decrementTtl() {
        if (!routerTtl) {
            causeTtl = counters.dropCause(DROP_TTL_EXPIRED);
            routerTtl = true;
        }
    }

    private static boolean carriesTtl(PacketRecord r) {
        return (r.ipVersion() == IPV4 || r.ipVersion() == IPV6) && r.ttl() != 0;
    }

    /** The control plane: registers and table entries. */
    public PipelineState state() {
        return state;
    }

    /** The control plane: adds a value/mask entry to one of the parser's value sets ({@code pvs_add}). */
    public void addParserValueSetEntry(String valueSet, long value, long mask) {
        frames.addValueSetEntry(valueSet, value, mask);
    }

    /** The control plane: empties one of the parser's value sets ({@code pvs_clear}). */
    public void clearParserValueSet(String valueSet) {
        frames.clearValueSet(valueSet);
    }

    /**
     * Multicast group g (1..65535, as mcast_grp_a/b name it) replicates to these front-panel
     * ports: one level-1 node of RID 0 without an L1 exclusion id, replacing the group's nodes.
     */
    public void multicastGroup(int group, int... ports) {
        for (int p : ports) {
            checkPort(p);
        }
        pre.setGroup(group, ports);
    }

    /** The control plane creates multicast group {@code group} (1..65535) without nodes ({@code mc_mgrp_create}). */
    public void createMulticastGroup(int group) {
        pre.createGroup(group);
    }

    /**
     * A level-1 node joins group {@code group} after its other nodes: copies to {@code ports}
     * carrying {@code rid} (egress reads it as eg_intr_md.egress_rid); with {@code l1XidValid},
     * a packet whose level1_exclusion_id is {@code l1Xid} skips the node.
     */
    public void multicastNode(int group, int rid, boolean l1XidValid, int l1Xid, int... ports) {
        for (int p : ports) {
            checkPort(p);
        }
        pre.addNode(group, rid, l1XidValid, l1Xid, ports);
    }

    /**
     * The port prune table: a packet whose level2_exclusion_id is {@code l2Xid} makes no copy to
     * these ports from the nodes whose RID is the packet's rid (no ports: nothing pruned).
     */
    public void multicastPrune(int l2Xid, int... ports) {
        for (int p : ports) {
            checkPort(p);
        }
        pre.setPrune(l2Xid, ports);
    }

    /** Runs {@code op} on the control plane at {@code cycle} (after that cycle's packets). */
    public void scheduleControl(long cycle, ControlOp op) {
        if (cycle < 0) {
            throw new IllegalArgumentException("control operation at negative cycle " + cycle);
        }
        controlOps.add(op);
        events.schedule(cycle, EventQueue.Phase.CONTROL, EV_CONTROL, controlOps.size() - 1);
    }

    /**
     * As {@link #scheduleControl}, but a user's operation: if its cycle comes after the
     * run's last event (only such operations are left), it is not applied, it does not
     * stretch the run, and it is listed in {@link #controlOpsNotApplied()}. A program's
     * own control plane uses {@link #scheduleControl}, whose reads at the end always run.
     */
    public void scheduleControlWithinRun(long cycle, ControlOp op) {
        scheduleControl(cycle, op);
        withinRun.set(controlOps.size() - 1);
        pendingWithinRun++;
    }

    /**
     * Tofino-style packet generator: from {@code startCycle}, every {@code periodCycles},
     * injects a packet built by {@code template} into {@code pipe}'s parser as if from
     * its recirculation port; {@code count} packets in all (0 = until the end of the run:
     * it keeps firing while packets arrive and stops once {@link #drain()} finds nothing else to do).
     * Returns the generator's handle for {@link #stopPacketGenerator}.
     */
    public int packetGenerator(int pipe, long startCycle, long periodCycles, long count, Consumer<PacketRecord> template) {
        if (pipe < 0 || pipe >= profile.pipes() || periodCycles < 1) {
            throw new UserError("packet generator: pipe " + pipe + " / period " + periodCycles + " invalid");
        }
        generators.add(new Generator(pipe, periodCycles, count, template, false));
        genEmitted = Arrays.copyOf(genEmitted, generators.size());
        genStopped = Arrays.copyOf(genStopped, generators.size());
        events.schedule(startCycle, EventQueue.Phase.RECIRCULATION_ARRIVAL, EV_GENERATOR, generators.size() - 1);
        return generators.size() - 1;
    }

    /**
     * A periodic generator, as {@link #packetGenerator} with no count, that fires while the
     * input lasts: it stops when the drain begins (the trace is over), so several of them never
     * keep a drain alive. Tofino's pktgen timer applications run so.
     */
    public int packetGeneratorUntilInputEnds(int pipe, long startCycle, long periodCycles, Consumer<PacketRecord> template) {
        int handle = packetGenerator(pipe, startCycle, periodCycles, 0, template);
        Generator g = generators.get(handle);
        generators.set(handle, new Generator(g.pipe(), g.periodCycles(), 0, g.template(), true));
        return handle;
    }

    /**
     * The control plane disables generator {@code handle}: it emits nothing from its next
     * firing on (packets it already injected carry on). For an unbounded generator whose
     * packets keep themselves busy (recirculating probes), this ends it at a chosen time.
     */
    public void stopPacketGenerator(int handle) {
        if (handle < 0 || handle >= generators.size()) {
            throw new IllegalArgumentException("no packet generator " + handle);
        }
        genStopped[handle] = true;
    }

    private long[] genEmitted = new long[0];
    private boolean[] genStopped = new boolean[0];

    private void checkPort(int p) {
        if (p < 0 || p >= frontPorts) {
            throw new UserError("port " + p + " outside 0.." + (frontPorts - 1));
        }
    }

    // ------------------------------------------------------------------ running

    /**
     * True when nothing but within-run control operations is left: no packet, generator,
     * queue or program control event.
     */
    public boolean onlyWithinRunOpsPending() {
        return lanes.isEmpty() && dequeues.isEmpty() && events.size() == pendingWithinRun;
    }

    /**
     * A within-run control operation reached after the run's last event is not applied:
     * it would only stretch the emulated duration (an {@code at} far in the future).
     * {@code over} says whether the run is over; a network sets it to ask every switch.
     */
    public void runOverWhen(BooleanSupplier over) {
        this.runOver = over;
    }

    /** Control operations dropped because they came after the run's last event, in schedule order. */
    public List<ControlOp> controlOpsNotApplied() {
        return Collections.unmodifiableList(controlOpsNotApplied);
    }

    /**
     * Events between two looks at the stop condition: one counter per event, and a stop is seen
     * within a few microseconds of emulated work (and after every control operation).
     */
    static final int STOP_CHECK_EVENTS = 1 << 10;
    private BooleanSupplier stopWhen = () -> false;
    /** Events left before the next look at the stop condition. */
    private int eventsToStopCheck = STOP_CHECK_EVENTS;

    /**
     * The event loop throws {@link RunStopped}, between two events, once {@code stop} says so
     * (a SIGINT/SIGTERM during a long stretch of events inside one arrival or the drain).
     */
    public void stopWhen(BooleanSupplier stop) {
        this.stopWhen = stop == null ? () -> false : stop;
    }

    /** Out of the event loop's body, so the loop stays small for the JIT: one decrement per event there. */
    private void checkStop() {
        eventsToStopCheck = STOP_CHECK_EVENTS;
        if (stopWhen.getAsBoolean()) {
            throw new RunStopped();
        }
    }

    /** Cycle of the next pending event (Long.MAX_VALUE when idle). */
    public long nextEventCycle() {
        return Math.min(events.peekCycle(), Math.min(lanes.headCycle(), dequeues.headCycle()));
    }

    /**
     * Processes every event ordered before (cycle, phase). Events come from three sources,
     * merged in (cycle, phase) order: the enqueue lanes (ENQUEUE phase), the dequeue
     * calendar (DEQUEUE phase) and the heap (every other phase).
     */
    public void runUntil(long cycle, int phase) {
        long outerCycle = limitCycle;
        int outerPhase = limitPhase;
        limitCycle = cycle;
        limitPhase = phase;
        try {
            runEvents(cycle, phase);
        } finally {
            limitCycle = outerCycle;
            limitPhase = outerPhase;
        }
    }

    /**
     * The bound of the {@link #runUntil} running: every event ordered before (limitCycle,
     * limitPhase) runs in it, so a cut-through may run a dequeue that comes before the bound
     * with nothing else between (nothing runs before the first call: an empty bound).
     */
    private long limitCycle = Long.MIN_VALUE;
    private int limitPhase;

    private void runEvents(long cycle, int phase) {
        while (true) {
            if (--eventsToStopCheck == 0) {
                checkStop();
            }
            long lc = lanes.headCycle();
            long dc = dequeues.headCycle();
            // at equal cycles an enqueue (ENQUEUE phase) goes before a dequeue (DEQUEUE phase)
            boolean lane = !lanes.isEmpty() && lc <= dc;
            long c = lane ? lc : dc;
            int ph = lane ? EventQueue.Phase.ENQUEUE : EventQueue.Phase.DEQUEUE;
            if ((lane || !dequeues.isEmpty()) && !heapFirst(c, ph)) {
                if (c > cycle || (c == cycle && ph >= phase)) {
                    return;
                }
                now = c;
                if (lane) {
                    enqueue(c, lanes.poll());
                } else {
                    dequeue(c, dequeues.poll());
                }
            } else if (!stepHeap(cycle, phase)) {
                return;
            }
        }
    }

    /** True when the heap's earliest event comes before (c, phase). */
    private boolean heapFirst(long c, int phase) {
        long hc = events.peekCycle();
        return hc < c || (hc == c && events.peekPhase() < phase);
    }

    /** Runs the heap's earliest event if it is ordered before (cycle, phase); false if it is not (or there is none). */
    private boolean stepHeap(long cycle, int phase) {
        if (events.isEmpty()) {
            return false;
        }
        long c = events.peekCycle();
        if (c > cycle || (c == cycle && events.peekPhase() >= phase)) {
            return false;
        }
        step();
        return true;
    }

    /** Processes events until none is left. */
    public void drain() {
        draining = true;
        runUntil(Long.MAX_VALUE, Integer.MAX_VALUE);
        draining = false;
    }

    /** A packet reaches front-panel port {@code port} at {@code cycle}; earlier events must have run. */
    public void arrive(long cycle, int port, PacketRecord record) {
        if (cycle < lastArrival) {
            throw new IllegalArgumentException("arrival at cycle " + cycle + " before the previous one at " + lastArrival);
        }
        checkPort(port);
        lastArrival = cycle;
        runUntil(cycle, EventQueue.Phase.PORT_ARRIVAL);
        int slot = pool.acquire();
        pool.storeRecord(slot, record);
        attachFrame(slot);
        pool.packetNumber(slot, nextPacketNumber++);
        pool.arrivalCycle(slot, cycle);
        pool.ingressPort(slot, port);
        counters.packetIn();
        now = cycle;
        Phv phv = pool.phv(slot);
        parser.freshBeforeFrameParse(phv); // the parse writes every header slot
        if (parseFrame(slot, phv)) {
            ingress(slot, cycle, port);
        }
    }

    /** A record that carries no frame bytes gets the frame its fields describe (see {@link FrameSynthesizer#attachFrame}). */
    private void attachFrame(int slot) {
        if (pool.capturedLength(slot) == 0) { // attachFrame's own first test, without re-pointing the pool's flyweight
            FrameSynthesizer.attachFrame(pool.record(slot));
        }
    }

    /**
     * Schedules an arrival from a link (topology use): the record is copied now.
     * Same-cycle link arrivals reach the parser in ascending port order (then in
     * scheduling order), so the order does not depend on who scheduled first.
     */
    public void scheduleArrival(long cycle, int port, PacketRecord record) {
        scheduleArrival(cycle, port, record, 0);
    }

    /** As {@link #scheduleArrival(long, int, PacketRecord)}, the packet having passed {@code hops} switches. */
    public void scheduleArrival(long cycle, int port, PacketRecord record, int hops) {
        checkPort(port);
        int slot = pool.acquire();
        pool.storeRecord(slot, record);
        attachFrame(slot);
        pool.ingressPort(slot, port);
        pool.hops(slot, hops);
        pendingArrivals++;
        events.schedule(cycle, EventQueue.Phase.PORT_ARRIVAL, port, EV_PORT_ARRIVAL, slot);
    }

    private void step() {
        events.pop();
        long c = events.cycle();
        int payload = events.payload();
        if (events.type() == EV_CONTROL && withinRun.get(payload)) {
            pendingWithinRun--;
            if (runOver.getAsBoolean()) {
                controlOpsNotApplied.add(controlOps.get(payload));
                return; // `now` stays at the last event: the run is not stretched
            }
        }
        now = c;
        switch (events.type()) {
            case EV_PORT_ARRIVAL -> {
                int slot = payload;
                pendingArrivals--;
                pool.packetNumber(slot, nextPacketNumber++);
                pool.arrivalCycle(slot, c);
                counters.packetIn();
                Phv phv = pool.phv(slot);
                parser.freshBeforeFrameParse(phv);
                if (parseFrame(slot, phv)) {
                    ingress(slot, c, pool.ingressPort(slot));
                }
            }
            case EV_RECIRC_ARRIVAL -> {
                int slot = payload;
                resetMetadata(pool.phv(slot));
                ingress(slot, c, pool.ingressPort(slot));
            }
            case EV_CONTROL -> {
                controlOps.get(payload).apply(state, c);
                // a control operation may be long (a program exporting a whole sketch): look at the stop next
                eventsToStopCheck = 1;
            }
            case EV_GENERATOR -> generate(c, payload);
            default -> throw new IllegalStateException("unknown event " + events.type());
        }
    }

    private final PacketRecord genRecord = PacketRecord.allocate();
    /** The slot whose frame {@link #parseFrame} has just read, until its ingress pass starts (-1: none). */
    private int parsedSlot = -1;
    /**
     * Whether each parse keeps its frame's layout for the packet's egress deparser: from the
     * first egress deparse on (a program whose egress writes no header never pays for it).
     */
    private boolean keepLayouts;
    /** Packets scheduled from links, not arrived yet (they hold pool slots but are not counted in). */
    private long pendingArrivals;

    private void generate(long c, int index) {
        Generator g = generators.get(index);
        if (genStopped[index] || g.untilInputEnds() && draining || g.count() == 0 && draining && onlyWithinRunOpsPending()) {
            return; // an unbounded generator stops once the drain finds nothing else to do
        }
        genRecord.clear();
        genRecord.timestampNs(clock.cyclesToNs(c));
        g.template().accept(genRecord);
        int slot = pool.acquire();
        pool.storeRecord(slot, genRecord);
        attachFrame(slot);
        pool.packetNumber(slot, nextPacketNumber++);
        pool.arrivalCycle(slot, c);
        int port = PortNumbers.recirculationPort(g.pipe());
        pool.ingressPort(slot, port);
        counters.packetIn();
        Phv phv = pool.phv(slot);
        // a generated packet without frame bytes is the generator's own header (Tofino's pktgen
        // header, which the parser does not run the frame's graph over): nothing loads its header slots
        boolean framed = pool.capturedLength(slot) != 0;
        if (framed) {
            parser.freshBeforeFrameParse(phv);
        } else {
            parser.fresh(phv);
        }
        if (!framed || parseFrame(slot, phv)) {
            ingress(slot, c, port);
        }
        long emitted = ++genEmitted[index];
        if (g.count() == 0 || emitted < g.count()) {
            events.schedule(c + g.periodCycles(), EventQueue.Phase.RECIRCULATION_ARRIVAL, EV_GENERATOR, index);
        }
    }

    /**
     * The program's parser over the slot's frame, in place: loads the header fields it declares
     * by the graph's names. A frame the graph refuses is dropped as a parser error of its kind.
     */
    private boolean parseFrame(int slot, Phv phv) {
        if (frames.parse(pool.frameArray(), pool.frameOffset(slot), pool.capturedLength(slot),
                pool.wireLength(slot), phv.values())) {
            parsedSlot = slot;
            if (keepLayouts) {
                frames.keepLayout(slot);
                pool.layoutKept(slot, true);
            }
            return true;
        }
        counters.parserError(frames.error());
        pool.release(slot);
        return false;
    }

    /**
     * The deparser, after a pass that wrote a header field: the frame is rewritten from the
     * PHV (headers made valid or invalid added or removed, checksums updated), and the wire
     * length follows the frame's. A frame longer than the slot keeps its first bytes.
     */
    private void deparseFrame(int slot, Phv phv) {
        deparseFrame(slot, phv, false);
    }

    /** As {@link #deparseFrame(int, Phv)}; {@code parsedLast}: the slot's frame is the one the parser last read (its layout is reused). */
    private void deparseFrame(int slot, Phv phv, boolean parsedLast) {
        PacketRecord r = pool.record(slot);
        int caplen = pool.capturedLength(slot);
        int wire = r.wireLength();
        // written over the slot's own frame (a frame longer than the slot keeps its first bytes)
        boolean kept = pool.layoutKept(slot);
        int n = frames.deparseInPlace(pool.frameArray(), pool.frameOffset(slot), caplen, wire, phv.values(), parsedLast,
                kept ? slot : -1, r.frameCapacity());
        // the frame is rewritten: its kept layout stays only where no header moved and no byte a parse steers by changed
        pool.layoutKept(slot, kept && frames.layoutUnchanged());
        if (n >= 0) {
            r.wireLength(wire + n - caplen);
            r.capturedLength(Math.min(n, r.frameCapacity()));
        }
    }

    private void resetMetadata(Phv phv) {
        // a recirculated packet keeps its headers (what the deparser emitted); metadata starts fresh
        long[] v = phv.values();
        for (int s : metadataSlots) {
            v[s] = 0;
        }
    }

    private int pipeOfPort(int port) {
        if (PortNumbers.isRecirculation(port)) {
            return port - PortNumbers.RECIRCULATION_BASE;
        }
        return portPipe[port];
    }

    private void ingress(int slot, long arrival, int port) {
        int resubmitType = pool.resubmitType(slot);
        long macCycle = arrival; // when the ingress MAC stamped the packet: once, on its first pass
        if (resubmitType != 0) {
            if (!reparseResubmitted(slot)) {
                return; // the parser refused the frame on the second pass: dropped as a parser error
            }
            macCycle = pool.resubmitMacCycle(slot);
        }
        // a fresh (or resubmitted) packet's pass follows its parse at once: its ingress deparser reuses that parse
        boolean parsedNow = parsedSlot == slot;
        parsedSlot = -1;
        int pipe = pipeOfPort(port);
        long p = Math.max(arrival, parserFree[pipe]);
        parserFree[pipe] = p + 1;
        Phv phv = pool.phv(slot);
        loadIngressIntrinsics(phv, macCycle, port);
        if (resubmitType != 0) {
            resubmittedPass(slot, phv, resubmitType);
        } else if (fResubmitFlag != null) {
            phv.load(fResubmitFlag, 0);
        }
        // counters count the frame's bytes, meters fill their buckets by the time the parser took the packet
        phv.stamp(pool.wireLength(slot), clock.cyclesToNs(p));
        if (fIngressGlobalTstamp != null) {
            phv.load(fIngressGlobalTstamp, phv.nowNs()); // the ingress parser's time, as the meters'
        }
        executor.run(phv, pipe, Gress.INGRESS, pool.packetNumber(slot));
        if (forwarding != null && phv.get(fEgressPortOut) == PortNumbers.UNSET) {
            phv.load(fEgressPortOut, ports.toProgram(forwarding.egressPort(port, pool.record(slot))));
        }
        if (routerTtl && frames.ttl(pool.frameArray(), pool.frameOffset(slot), pool.capturedLength(slot),
                pool.wireLength(slot)) == 1) {
            drop(slot, causeTtl); // a router does not forward a packet whose TTL would reach 0
            return;
        }
        long toTm = p + ingressToTm;
        if (digestByType != null) {
            digest(phv, pipe, p + ingressToDeparsed); // the deparser sends it whether or not the packet is dropped
        }
        if (ingressMirrors != null) {
            mirror(ingressMirrors, fMirrorType, fDrop, slot, phv, pipe, toTm); // ingress to egress, dropped or not
        }
        if ((phv.get(fDrop) & DROP_CTL_DROP) != 0) {
            drop(slot, causeIngress);
            return;
        }
        if (fResubmit != null && phv.get(fResubmit) != 0) {
            if (pool.resubmits(slot) >= MAX_RESUBMITS) {
                drop(slot, causeResubmit);
            } else {
                pool.resubmitted(slot);
                int type = (int) phv.get(fResubmit);
                Resubmit h = resubmitByType == null ? null : resubmitByType[type];
                pool.resubmitHeader(slot, type, h == null ? 0 : h.pack(phv.values()), macCycle); // the deparser emits the header
                events.schedule(toTm, EventQueue.Phase.RECIRCULATION_ARRIVAL, EV_RECIRC_ARRIVAL, slot);
            }
            return;
        }
        if (framesWritable && phv.headerWritten()) {
            deparseFrame(slot, phv, parsedNow); // the ingress deparser: the traffic manager buffers what it emits
        }
        lanes.add(pipe, toTm, slot);
    }

    /**
     * A resubmitted packet re-enters the ingress parser with its original bytes (the first pass's
     * ingress deparser did not run: its header writes are gone) and the parser runs from its
     * start, as for a fresh arrival (p4lang/p4-spec wiki "How to do resubmit in PSA?": "The
     * original packet is resubmitted to the ingress parser"; TNA's TofinoIngressParser then
     * reads the resubmit header where the port metadata was). The whole PHV, headers and metadata, is what this
     * parse writes. A frame without bytes is a generator's own header, which the frame graph
     * does not run over (as in {@link #generate}). Returns false when the parser refused the
     * frame: the packet is dropped as any parser error.
     */
    private boolean reparseResubmitted(int slot) {
        if (resubmittedRejected) {
            // the parser's resubmit branch rejects before any frame header is read
            counters.parserError(ParserError.REJECT);
            pool.release(slot);
            return false;
        }
        Phv phv = pool.phv(slot);
        if (pool.capturedLength(slot) == 0) {
            parser.fresh(phv);
            return true;
        }
        parser.freshBeforeFrameParse(phv);
        return parseFrame(slot, phv);
    }

    /**
     * A resubmitted packet's ingress pass, after {@link #reparseResubmitted}: resubmit_flag is 1
     * and the ingress parser reads the resubmit header of its resubmit_type (if the program
     * declares one) back into its fields. ingress_port is the port it first arrived on, and
     * ingress_mac_tstamp (loaded by {@link #ingress}) the first pass's: TNA (p4c's
     * p4include/tofino1_base.p4, ingress_intrinsic_metadata_t) takes it "at the ingress MAC",
     * which a resubmitted packet does not cross again. ingress_global_tstamp is this pass's
     * parser time, as the meters'.
     */
    private void resubmittedPass(int slot, Phv phv, int type) {
        if (fResubmitFlag != null) {
            phv.load(fResubmitFlag, 1);
        }
        Resubmit h = resubmitByType == null ? null : resubmitByType[type];
        if (h != null) {
            h.unpack(pool.resubmitData(slot), phv.values());
        }
        pool.resubmitHeader(slot, 0, 0, 0);
    }

    private void digest(Phv phv, int pipe, long cycle) {
        long type = phv.get(fDigestType);
        Digest d = digestByType[(int) type];
        if (d != null) {
            digestsSent++;
            if (digestSink != null) {
                digestSink.digest(cycle, pipe, d, phv);
            }
        }
    }

    /**
     * The deparser's mirror: when the gress's mirror_type selects a mirror and drop_ctl does not
     * disable mirroring, a copy of the packet as the deparser emits it, behind the mirror
     * header, truncated to the session's maximum length, reaches the traffic manager at
     * {@code atTm} for the session's port (queue 0). It takes buffer as any packet, is counted
     * as a mirrored copy, runs the egress pipeline of its port ({@link #copyEntersEgress}; the
     * original's bypass_egress is not the copy's) and leaves, or is dropped, as any packet.
     */
    private void mirror(Mirror[] byType, Field typeField, Field dropCtl, int slot, Phv phv, int pipe, long atTm) {
        Mirror m = byType[(int) phv.get(typeField)];
        if (m == null || dropCtl != null && (phv.get(dropCtl) & DROP_CTL_NO_MIRROR) != 0) {
            return;
        }
        int session = (int) phv.get(m.session());
        int copy = pool.acquire();
        pool.copy(slot, copy);
        counters.mirroredCopy();
        int port = sessionPort != null && session >= 1 && session <= Mirror.MAX_SESSION ? sessionPort[session] : -1;
        if (port < 0) {
            drop(copy, causeMirrorSession);
            return;
        }
        Phv cp = pool.phv(copy);
        if (framesWritable && cp.headerWritten()) {
            deparseFrame(copy, cp);
        }
        for (int i = 0; i < m.fields().size(); i++) {
            mirrorValues[i] = phv.get(m.fields().get(i));
        }
        PacketRecord r = pool.record(copy);
        int h = m.headerBytes();
        int off = pool.frameOffset(copy);
        int caplen = Math.min(pool.capturedLength(copy) + h, pool.frameCapacity());
        int wire = r.wireLength() + h;
        byte[] a = pool.frameArray();
        System.arraycopy(a, off, a, off + h, caplen - h);
        m.pack(mirrorValues, a, off);
        int max = sessionMaxLength[session];
        if (max > 0) {
            caplen = Math.min(caplen, max);
            wire = Math.min(wire, max);
        }
        r.capturedLength(caplen);
        r.wireLength(wire);
        cp.load(fEgressPortOut, ports.toProgram(port));
        if (fMcast != null) {
            cp.load(fMcast, 0);
        }
        if (fMcastB != null) {
            cp.load(fMcastB, 0);
        }
        if (fQid != null) {
            cp.load(fQid, 0);
        }
        if (fBypassEgress != null) {
            cp.load(fBypassEgress, 0);
        }
        pool.mirrorSession(copy, session | mirrorKey(m) << MIRROR_KEY_SHIFT);
        lanes.add(pipe, atTm, copy);
    }

    /** The pool's mirror-session word of a copy holds the session in its low bits and, from this bit on, its mirror's key. */
    private static final int MIRROR_KEY_SHIFT = 16;

    /** A mirror's key, never 0: ingress mirrors by type 1..7, egress mirrors 9..15. */
    private static int mirrorKey(Mirror m) {
        return (m.gress() == Gress.EGRESS ? Mirror.MAX_TYPE + 1 : 0) + m.type();
    }

    /**
     * A mirrored copy's egress parser, as Tofino's sees the copy (mirror header, then the packet):
     * egress metadata and the bridged fields start afresh, the header fields keep the packet's
     * values (the frame behind the header), and the mirror header leaves the frame: into the
     * egress metadata the mirror names ({@link Mirror#egressFields()}), or, if it names none,
     * set aside (see {@link #copyLeavesEgress}) so that the egress deparser sees the packet alone.
     * Returns the bytes set aside.
     */
    private int copyEntersEgress(int slot, Phv phv) {
        Mirror m = mirrorByKey[pool.mirrorSession(slot) >>> MIRROR_KEY_SHIFT];
        long[] v = phv.values();
        for (int s : copyEgressFreshSlots) {
            v[s] = 0;
        }
        int h = Math.min(m.headerBytes(), pool.capturedLength(slot));
        byte[] a = pool.frameArray();
        int off = pool.frameOffset(slot);
        boolean read = !m.egressFields().isEmpty() && h == m.headerBytes();
        if (read) {
            m.unpack(a, off, v);
        } else {
            System.arraycopy(a, off, mirrorHeaderAside, 0, h);
        }
        int caplen = pool.capturedLength(slot);
        System.arraycopy(a, off + h, a, off, caplen - h);
        PacketRecord r = pool.record(slot);
        r.capturedLength(caplen - h);
        r.wireLength(r.wireLength() - h);
        pool.layoutKept(slot, false);
        return read ? 0 : h;
    }

    /**
     * After a copy's egress pass: the egress deparser's frame (if egress wrote a header), with the
     * mirror header its egress parser did not read back in front ({@code aside} bytes); the port
     * serialises that frame.
     */
    private void copyLeavesEgress(int slot, Phv phv, int out, int aside, int wireAtDequeue) {
        if (framesWritable && phv.headerWritten()) {
            deparseFrame(slot, phv);
        }
        if (aside > 0) {
            PacketRecord r = pool.record(slot);
            byte[] a = pool.frameArray();
            int off = pool.frameOffset(slot);
            int caplen = Math.min(pool.capturedLength(slot) + aside, pool.frameCapacity());
            System.arraycopy(a, off, a, off + aside, caplen - aside);
            System.arraycopy(mirrorHeaderAside, 0, a, off, aside);
            r.capturedLength(caplen);
            r.wireLength(r.wireLength() + aside);
        }
        int after = pool.wireLength(slot);
        if (after != wireAtDequeue) {
            tm.reserialise(out, after, dq);
        }
    }

    /** Ingress intrinsic metadata as the parser hands the packet to stage 0 (kept apart so ingress stays inlinable). */
    private void loadIngressIntrinsics(Phv phv, long arrival, int port) {
        phv.load(fIngressPort, ports.toProgram(port));
        if (fIngressTstamp != null) {
            phv.load(fIngressTstamp, clock.cyclesToNs(arrival));
        }
        phv.load(fEgressPortOut, PortNumbers.UNSET);
        phv.load(fDrop, 0);
        if (fQid != null) {
            phv.load(fQid, 0);
        }
        if (multicasts) {
            loadMulticastIntrinsics(phv);
        }
        if (fResubmit != null) {
            phv.load(fResubmit, 0);
        }
        if (fDigestType != null) {
            phv.load(fDigestType, 0);
        }
        if (fMirrorType != null) {
            phv.load(fMirrorType, 0);
        }
        if (fBypassEgress != null) {
            phv.load(fBypassEgress, 0);
        }
    }

    /** A packet names no multicast tree, no exclusion and RID 0 until ingress writes them. */
    private void loadMulticastIntrinsics(Phv phv) {
        if (fMcast != null) {
            phv.load(fMcast, 0);
        }
        if (fMcastB != null) {
            phv.load(fMcastB, 0);
        }
        if (fL1Xid != null) {
            phv.load(fL1Xid, 0);
        }
        if (fL2Xid != null) {
            phv.load(fL2Xid, 0);
        }
        if (fRid != null) {
            phv.load(fRid, 0);
        }
    }

    private int tmPort(int port) {
        if (port >= 0 && port < frontPorts) {
            return port;
        }
        if (PortNumbers.isRecirculation(port) && port - PortNumbers.RECIRCULATION_BASE < profile.pipes()) {
            return frontPorts + port - PortNumbers.RECIRCULATION_BASE;
        }
        return -1;
    }

    private void enqueue(long c, int slot) {
        Phv phv = pool.phv(slot);
        int qid = fQid == null ? 0 : (int) phv.get(fQid);
        if (qid >= config.port().queues()) {
            qid = config.port().queues() - 1;
        }
        if (multicasts) {
            int a = fMcast == null ? 0 : (int) phv.get(fMcast);
            int b = fMcastB == null ? 0 : (int) phv.get(fMcastB);
            if (a != 0 || b != 0) {
                replicate(c, slot, qid, phv, a, b);
                return;
            }
        }
        if (fEgressRid != null) {
            phv.load(fEgressRid, 0); // a unicast packet is no replica
        }
        int out = tmPort(ports.toEngine((int) phv.get(fEgressPortOut)));
        if (out < 0) {
            drop(slot, causeNoPort);
            return;
        }
        admit(c, out, qid, slot);
    }

    /**
     * The PRE copies a packet naming multicast trees a and b: each copy, in the order the PRE
     * makes them (tree a then b, node order, port order), reaches its port's queue in this
     * cycle, carrying its node's RID; the packet itself is the last copy, the others are
     * counted as replicated. A packet of no copy is dropped.
     */
    private void replicate(long c, int slot, int qid, Phv phv, int a, int b) {
        int n = pre.replicate(a, b, fL1Xid == null ? 0 : (int) phv.get(fL1Xid),
                fL2Xid == null ? 0 : (int) phv.get(fL2Xid), fRid == null ? 0 : (int) phv.get(fRid));
        if (n == 0) {
            drop(slot, causeNoCopy);
            return;
        }
        replicating = true; // copies go to the dequeue phase in the PRE's order, never inline
        for (int i = 0; i < n; i++) {
            int copy = i == n - 1 ? slot : pool.acquire();
            if (copy != slot) {
                pool.copy(slot, copy);
                counters.replicatedCopy();
            }
            if (fEgressRid != null) {
                pool.phv(copy).load(fEgressRid, pre.rid(i));
            }
            admit(c, pre.port(i), qid, copy);
        }
        replicating = false;
    }

    private void admit(long c, int out, int qid, int slot) {
        if (linkDown[out]) {
            drop(slot, causePortDown, out, qid); // the TM flushes what it would queue to a down port
            return;
        }
        if (cutThrough && !replicating && !dequeues.pending(out)) {
            long d = tm.cutThroughCycle(out, c);
            if (d >= 0 && beforeLimit(d) && nothingElseBeforeDequeue(d, out)) {
                cutThrough(c, d, out, qid, slot);
                return;
            }
        }
        // a program's bridged header rides through the buffer (not the wire): it costs cells
        int code = tm.enqueue(c, out, qid, slot, pool.wireLength(slot), bridgedBytes);
        if (code != DropCause.ADMITTED) {
            drop(slot, out >= frontPorts ? causeRecirc : causeTm[code], out < frontPorts ? out : PacketTap.NO_PORT, qid);
            return;
        }
        timeline.record(c, tm.bufferOccupancyCells());
        portTimeline(out).record(c, tm.portDepthCells(out));
        if (!dequeues.pending(out)) {
            long at = Math.max(c, tm.nextDequeueCycle(out));
            if (at == c && !replicating && nothingElseBeforeDequeue(c, out)) {
                // the dequeue would be the very next event: run it now (same order, no calendar traffic)
                dequeue(c, out);
                return;
            }
            dequeues.schedule(out, at);
        }
    }

    /**
     * A packet that finds its port empty, its dequeue at cycle d (once the port is free) the
     * very next event of the running {@link #runUntil}: admitted at c and sent at d at once, with
     * the timing, counts and timeline samples that enqueue at c then dequeue at d give (the
     * timelines see it queued at c), without passing through its queue or the dequeue calendar.
     */
    private void cutThrough(long c, long d, int out, int qid, int slot) {
        int bytes = pool.wireLength(slot);
        // d is cutThroughCycle(out, c) of admit, nothing in the traffic manager changed since, bridgedBytes >= 0
        int code = tm.cutThroughAt(c, d, out, qid, slot, bytes, bridgedBytes, dq);
        if (code != DropCause.ADMITTED) {
            drop(slot, out >= frontPorts ? causeRecirc : causeTm[code], out < frontPorts ? out : PacketTap.NO_PORT, qid);
            return;
        }
        cutThroughPackets++;
        int cells = dq.cells(); // what the admission counted
        timeline.record(c, tm.bufferOccupancyCells() + cells);
        portTimeline(out).record(c, cells); // the port held no packet (cutThroughCycle): its depth was 0
        now = d; // the dequeue's event time (a drop in egress is counted then)
        egress(out, slot);
    }

    /** True when an event at (d, DEQUEUE) runs in the running {@link #runUntil}. */
    private boolean beforeLimit(long d) {
        return d < limitCycle || d == limitCycle && EventQueue.Phase.DEQUEUE < limitPhase;
    }

    /**
     * Turns the cut-through of {@link #cutThrough(long, long, int, int, int)} off or on (on by default):
     * the outputs are the same either way, which the tests hold by comparing both.
     */
    public void cutThrough(boolean on) {
        this.cutThrough = on;
    }

    /** Packets (copies) sent without passing through their queue (the cut-through). */
    public long cutThroughPackets() {
        return cutThroughPackets;
    }

    /**
     * True when no other event runs before port {@code out}'s dequeue at cycle d (DEQUEUE phase,
     * lower ports first), the current event's cycle being at most d.
     */
    private boolean nothingElseBeforeDequeue(long d, int out) {
        if (lanes.headCycle() <= d) {
            return false;
        }
        long dc = dequeues.headCycle();
        if (dc < d || dc == d && dequeues.headPort() < out) {
            return false;
        }
        long hc = events.peekCycle();
        return hc > d || hc == d && events.peekPhase() > EventQueue.Phase.DEQUEUE;
    }

    private void dequeue(long c, int out) {
        if (tm.dequeue(c, out, dq) != TrafficManager.NOTHING_DEQUEUED) {
            egress(out, dq.packetHandle());
        }
        long next = tm.nextDequeueCycle(out);
        if (next != Long.MAX_VALUE) {
            dequeues.schedule(out, Math.max(c, next));
        }
    }

    private void egress(int out, int slot) {
        Phv phv = pool.phv(slot);
        boolean recirc = out >= frontPorts;
        int portNumber = recirc ? PortNumbers.recirculationPort(out - frontPorts) : out;
        int pipe = recirc ? out - frontPorts : portPipe[out];
        loadEgressIntrinsics(phv, portNumber, slot);
        metrics.recordQueueingDelayCycles(out, dq.qid(), dq.deqTimedelta());
        boolean copy = pool.mirrorSession(slot) != 0;
        // bypass_egress skips the egress control and deparser (a mirrored copy's is 0, see mirror)
        boolean runsEgress = hasEgress && (fBypassEgress == null || phv.get(fBypassEgress) == 0);
        int wireAtDequeue = 0;
        int aside = 0;
        if (runsEgress) {
            if (copy) {
                wireAtDequeue = pool.wireLength(slot);
                aside = copyEntersEgress(slot, phv);
            }
            phv.stamp(pool.wireLength(slot), clock.cyclesToNs(dq.serialisationStartCycle() + parserCycles));
            executor.run(phv, pipe, Gress.EGRESS, pool.packetNumber(slot));
            if (egressMirrors != null) {
                // egress to egress: the copy reaches the traffic manager once the egress deparser is done
                mirror(egressMirrors, fEgressMirrorType, fEgressDrop, slot, phv, pipe,
                        dq.serialisationStartCycle() + egressToWire + tmCycles);
            }
        }
        if (fEgressDrop != null && (phv.get(fEgressDrop) & DROP_CTL_DROP) != 0) {
            drop(slot, causeEgress, recirc ? PacketTap.NO_PORT : out, dq.qid());
            return;
        }
        if (copy && runsEgress) {
            copyLeavesEgress(slot, phv, out, aside, wireAtDequeue);
        } else if (framesWritable && runsEgress && phv.headerWritten()) {
            // the egress deparser writes the frame that leaves; the port serialises that frame
            // (a header egress added or removed lengthens or shortens it on the wire)
            int before = pool.wireLength(slot);
            keepLayouts = true;
            deparseFrame(slot, phv);
            int after = pool.wireLength(slot);
            if (after != before) {
                tm.reserialise(out, after, dq);
            }
        }
        long departure = dq.serialisationEndCycle() + egressToWire;
        if (recirc) {
            counters.recirculated();
            pool.ingressPort(slot, portNumber);
            events.schedule(departure, EventQueue.Phase.RECIRCULATION_ARRIVAL, EV_RECIRC_ARRIVAL, slot);
            return;
        }
        counters.packetOut();
        departedBits.add(departure, (pool.wireLength(slot) + ArrivalTiming.WIRE_OVERHEAD_BYTES) * 8L);
        metrics.recordLatencyCycles(pool.arrivalCycle(slot), departure);
        if (routerTtl) {
            PacketRecord r = pool.record(slot);
            // the router's deparser writes the decremented TTL / hop limit into the frame (and the
            // record's decoded field, which statistics and the plain-Java references read)
            frames.decrementTtl(pool.frameArray(), pool.frameOffset(slot), pool.capturedLength(slot), r.wireLength());
            if (carriesTtl(r)) {
                r.ttl(r.ttl() - 1);
            }
        }
        if (tap != null) {
            tap.departed(pool.packetNumber(slot), pool.ingressPort(slot), pool.arrivalCycle(slot), out, dq.qid(),
                    departure, pool.record(slot));
        }
        listener.departed(departure, out, slot, pool);
        pool.release(slot);
    }

    /** Egress intrinsic metadata from the traffic manager's dequeue (kept apart so egress stays inlinable). */
    private void loadEgressIntrinsics(Phv phv, int portNumber, int slot) {
        phv.load(fEgressPort, ports.toProgram(portNumber));
        if (fEgressQid != null) {
            phv.load(fEgressQid, dq.qid());
        }
        if (fEnqQdepth != null) {
            phv.load(fEnqQdepth, dq.enqQdepth());
        }
        if (fEnqTstamp != null) {
            phv.load(fEnqTstamp, clock.cyclesToNs(dq.enqTstamp()));
        }
        if (fDeqQdepth != null) {
            phv.load(fDeqQdepth, dq.deqQdepth());
        }
        if (fDeqTimedelta != null) {
            phv.load(fDeqTimedelta, clock.cyclesToNs(dq.deqTimedelta()));
        }
        if (fGlobalTstamp != null) {
            phv.load(fGlobalTstamp, clock.cyclesToNs(dq.serialisationStartCycle() + parserCycles));
        }
        if (fPktLength != null) {
            phv.load(fPktLength, pool.wireLength(slot));
        }
        if (fEgressDrop != null) {
            phv.load(fEgressDrop, 0);
        }
        if (fEgressMirrorType != null) {
            phv.load(fEgressMirrorType, 0);
        }
    }

    /**
     * A network link dropped a packet at its port {@code port} (see {@link PacketTap#droppedOnLink}):
     * the captures record it; the switch's own counters do not (the network counts it per link).
     */
    public void linkDropped(int port, long cycle, String cause, PacketRecord record) {
        if (tap != null) {
            tap.droppedOnLink(port, cycle, cause, record);
        }
    }

    private void drop(int slot, int cause) {
        drop(slot, cause, PacketTap.NO_PORT, PacketTap.NO_QUEUE);
    }

    private void drop(int slot, int cause, int port, int queue) {
        counters.dropped(cause);
        droppedPackets.add(now, 1);
        if (tap != null) {
            tap.dropped(pool.packetNumber(slot), pool.ingressPort(slot), pool.arrivalCycle(slot), port, queue, cause, now,
                    pool.record(slot));
        }
        pool.release(slot);
    }

    // ------------------------------------------------------------------ results

    public Counters counters() {
        return counters;
    }

    public LatencyMetrics metrics() {
        return metrics;
    }

    /** Shared-buffer occupancy over time (max per bucket). */
    /** Bits departed through front-panel ports over time (throughput), by departure cycle. */
    public RateTimeline departedBits() {
        return departedBits;
    }

    /** Packets dropped over time (every cause), by the cycle of the drop. */
    public RateTimeline droppedPackets() {
        return droppedPackets;
    }

    public QueueDepthTimeline queueDepthTimeline() {
        return timeline;
    }

    /** One egress port's occupancy (cells, all its queues) over time, or null if nothing ever queued there. */
    public QueueDepthTimeline portDepthTimeline(int port) {
        return port < portTimelines.length ? portTimelines[port] : null;
    }

    private QueueDepthTimeline portTimeline(int port) {
        if (port >= portTimelines.length) {
            portTimelines = Arrays.copyOf(portTimelines, tm.portCount());
        }
        QueueDepthTimeline t = portTimelines[port];
        if (t == null) {
            t = new QueueDepthTimeline();
            portTimelines[port] = t;
        }
        return t;
    }

    public TrafficManager trafficManager() {
        return tm;
    }

    public ResourceReport resources() {
        return resources;
    }

    /** The compiler's warnings about the program, one line each (the compiler's order). */
    public List<String> compilerWarnings() {
        return compilerWarnings;
    }

    /** The port numbers the program sees (TNA's for a P4 program on a target that fits them): control commands map theirs. */
    public ProgramPorts ports() {
        return ports;
    }

    public SwitchConfig config() {
        return config;
    }

    public CycleClock clock() {
        return clock;
    }

    /** Packets inside the switch (in a pipeline, in a queue, or recirculating). */
    public long inFlight() {
        // a packet scheduled to arrive from a link holds a slot but has not entered yet
        return pool.inUse() - pendingArrivals;
    }

    /** Packets scheduled to arrive from a link ({@link #scheduleArrival}) that have not arrived yet. */
    public long pendingArrivals() {
        return pendingArrivals;
    }

    /** The cycle of the last event processed. */
    public long now() {
        return now;
    }

    /** Cycles from parser entry to the traffic manager. */
    public int ingressToTmCycles() {
        return ingressToTm;
    }

    /** Cycles from the end of serialisation accounting to the last bit (egress pipeline and deparser). */
    public int egressToWireCycles() {
        return egressToWire;
    }

    /** Throws unless in + mirrored + replicated = out + dropped + in flight. */
    public void checkConservation() {
        counters.checkConservation(inFlight());
    }
}
