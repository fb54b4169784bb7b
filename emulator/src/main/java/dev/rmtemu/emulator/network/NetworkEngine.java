package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.LinkImpairments;
import dev.rmtemu.emulator.topology.NodeKind;
import java.util.LinkedHashMap;
import java.util.SortedMap;
import java.util.TreeMap;
import dev.rmtemu.emulator.engine.CycleClock;
import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.metrics.LatencyHistogram;
import dev.rmtemu.emulator.metrics.LatencyMetrics;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.topology.BuiltinTopologies;
import dev.rmtemu.emulator.topology.Endpoint;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Routing;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.impair.GroundTruthLog;
import dev.rmtemu.traces.impair.ImpairmentChain;
import dev.rmtemu.traces.impair.ImpairmentDecision;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A network of switches, hosts and links on one timeline.
 *
 * <p><b>Switches.</b> One {@link SwitchEngine} per switch node, in node order.
 * A programmable switch runs the command-line program if one is given, else its
 * node's program, else (like every regular switch) {@link #plainForwardingProgram()},
 * a program with no stages. Forwarding the program leaves undecided comes from
 * {@link Routing} (LPM on the destination, then ECMP on {@link FlowKey#hash}).
 * Engine port p is topology port p + 1; each port runs at its link's rate. A port a
 * user types as a program parameter ({@code --param port=}) must exist on the switch.
 * Regular switches are routers: they decrement the TTL / hop limit and drop a packet
 * that runs out ({@code ttl_expired}). Every packet has a hop budget
 * ({@link NetworkOptions#maxHops()}): a packet that has passed that many switches is not
 * sent into another one but dropped as {@code hop_limit} (counted in conservation, and
 * named by {@link #warnings()}), so a forwarding loop ends.
 * Regular switches use the target of the first programmable switch (tofino1 if
 * there is none); all switches must share one clock.
 *
 * <p><b>Links.</b> Each direction of a link is a channel (id 2 × link + direction).
 * A packet whose last bit leaves a port at cycle d is decided on by the
 * channel's impairments (in the order of the topology file, each seeded by
 * {@link #impairmentSeed}), in order of leaving; a drop is counted and logged in
 * the channel's {@link GroundTruthLog} (index = the packet's position on the
 * channel); otherwise it reaches the far end at d + latency (+ extra delay), at
 * least one cycle later, and each duplicate one serialisation time after the
 * previous copy. Impairments see the emulated time (ns since cycle 0) at which
 * the packet enters the link as its timestamp, so blackhole windows are in run
 * time. A reorder decision holds the packet on the link until that many later
 * packets have entered it; it then arrives right behind the last of them
 * (same cycle, after it), or at the end of the run if too few came.
 *
 * <p><b>Hosts.</b> Trace packets are put on hosts by {@link HostMap}, stamped with
 * their injection time (record timestamp = emulated ns) and sent on the source
 * host's link at their arrival cycle (hosts do not serialise: the trace time is
 * when the last bit leaves the host). A packet reaching a host is delivered:
 * counted, and its end-to-end latency (delivery ns − injection ns) recorded.
 *
 * <p><b>One timeline.</b> {@link #inject} first runs every switch event before the
 * injection cycle; {@link #drain} runs until no event is left. The loop always
 * runs the switch with the earliest pending event (ties: lower node index) for
 * all its events of that cycle. That is causal because a packet leaving a
 * switch at cycle c reaches any other switch at a later cycle; same-cycle
 * arrivals at one switch enter its parser in port order. Allocation-free per
 * packet once warm.
 *
 * <p><b>Windows and threads.</b> The switches run in windows, the conservative scheme of
 * parallel discrete-event simulators (ns-3's distributed simulator, OMNeT++): the lookahead L
 * is the least, over switch-to-switch links, of the link's latency plus the sending switch's
 * egress-to-wire latency (a packet an event at cycle c dequeues leaves no earlier than c plus
 * that), and a window runs the events of every switch that has one from the earliest pending
 * cycle T up to T + L (exclusive) at once, switch by switch, because nothing a switch sends in
 * the window can reach another switch before T + L. The switches are split into as many parts
 * as {@link NetworkOptions#threads()}, contiguous blocks of switch ordinals (topologies list
 * neighbours together, so most links stay inside a part); a part keeps its switches ordered by
 * next event, so a window touches only those with work, and runs on whichever thread claims
 * it first. Arrivals for a switch of another part wait in an outbox, which the receiving part
 * empties at the start of its next window, and host deliveries are counted by the coordinating
 * thread after the barrier. An injection runs only the whole windows that end by its cycle (the
 * network lags behind the injections rather than cut a window short); the caller then puts the
 * packet on its hosts and leaves it in the queue of the part that owns its source host's link,
 * whose thread builds its frame and sends it at the start of its next window (the packet cannot
 * arrive before that window starts). A window reaches at most {@link #MAX_WINDOW_CYCLES}, so a
 * network without switch-to-switch links (no bound on the lookahead) still runs along with its
 * injections. Even on one thread a window is cheaper than the event-by-event loop above
 * (one run per switch and window, not one per switch and cycle). The output is the
 * same bytes as that loop's: a switch's arrivals are ordered by (cycle, port, then the order
 * its link sent them), which no interleaving of switches or parts changes, and everything else
 * a part touches belongs to its switches and their outgoing links. The network runs the
 * event-by-event loop on one thread (and says why in {@link #threadNote()} when more threads
 * were asked for) when a switch-to-switch link has no delay (no lookahead), or when code
 * outside the packets' path runs inside the switches and may share state across them: delivery
 * or arrival listeners, a departure listener added to a switch, control operations or packet
 * generators (a packet tap, the run's captures and packet log, writes only its own switch's
 * files and may run on any thread). A hardware-rule violation that two parts meet in one
 * window is reported for the switch with the lower (cycle, ordinal) of the two.
 */
public final class NetworkEngine {
    /** Name of the built-in program of regular switches and of programmable switches without one. */
    public static final String PLAIN_PROGRAM = "plain_forwarding";
    /**
     * Rate of a switch port with no link (it can only drop): Tofino 1 front-panel
     * ports are 100 GbE, the same default as the built-in topologies.
     */
    public static final double UNLINKED_PORT_GBPS = BuiltinTopologies.DC_LINK_RATE_GBPS;
    /** Bytes on the wire per packet beyond the frame, for duplicate spacing (preamble + SFD + gap). */
    public static final int WIRE_OVERHEAD_BYTES = 20;

    private static final long NS_PER_S = 1_000_000_000L;

    private final Topology topology;
    private final Routing routing;
    private final NetworkOptions options;
    private final CycleClock clock;
    private final HostMap hostMap;
    private final SwitchEngine[] switches;
    private final int[] switchNode;
    private final String[] switchProgram;
    /** node → switch ordinal or -1. */
    private final int[] switchOf;
    /** switch ordinal → engine port → outgoing channel, or -1. */
    private final int[][] portChannel;
    /** node → channel a host sends on, or -1. */
    private final int[] hostChannel;
    private final long[] scheduledArrivals;
    /** The switches by next event, on one thread (see {@link #runBefore}). */
    private final SwitchTimeline timeline;
    /**
     * Whether the timeline must be read again from every switch: at the start, and after anything
     * other than this class's own loop and links may have scheduled events (a parallel run, a
     * caller of {@link #runBefore} or {@link #drain}).
     */
    private boolean timelineStale = true;
    private final long[] unlinkedDrops;
    /** Per switch, per engine port: packets sent out of that unlinked port (a row is made on its first drop). */
    private final long[][] unlinkedByPort;
    /** Per switch: packets it sent on that had used up the hop budget (dropped as hop_limit). */
    private final long[] hopLimitDrops;
    /** Per switch: packets it sent past half the hop budget (the evidence that names a loop's switches). */
    private final long[] lateHopDepartures;
    private final int maxHops;

    // channels (2 per link)
    private final int channels;
    private final int[] chToSwitch;
    private final int[] chToPort;
    private final int[] chToHostNode;
    /** The switch (and its 0-based port) that sends into each channel, or -1 for a host. */
    private final int[] chFromSwitch;
    private final int[] chFromPort;
    /** Per channel and impairment of its chain: the drop cause the captures write ("link_drop: bernoulli(p=0.01)"). */
    private final String[][] chDropCauses;
    private final long[] chLatency;
    private final long[] chRateBps;
    private final ImpairmentChain[] chImpair;
    private final GroundTruthLog[] chLog;
    private final long[] chCarried;
    private final long[] chLost;
    private final long[][] chLostBy;
    private final long[] chDuplicates;
    private final long[] chDelayed;
    private final long[] chReordered;
    private final LinkHold[] chHold;

    // hosts (by node index)
    private final long[] injected;
    private final long[] delivered;
    private final long[] misdelivered;
    private final LatencyHistogram latency;

    private final ImpairmentDecision decision = new ImpairmentDecision();
    private final PacketRecord scratch;
    /** Frame bytes every packet keeps through the network. */
    private final int frameCapacity;
    private DeliveryListener deliveryListener;
    private ArrivalListener arrivalListener;
    /** What a link drop's cause starts with in the captures, before the impairment's description. */
    public static final String LINK_DROP = "link_drop: ";
    private long now;
    private boolean draining;
    private long lastInjection;

    // threads (see the class comment)
    /** The departure listener each switch got from the network, to tell a control plane's own from it. */
    private final DepartureListener[] ownDeparture;
    /** Threads the switches run on; 0 until the first run decides. */
    private int threadsUsed;
    /** Whether the switches run in windows (on one thread or several) rather than the event-by-event loop. */
    private boolean windowed;
    private String threadNote;
    /**
     * How far a window reaches past its start, in cycles: the least, over switch-to-switch links,
     * of the sending switch's egress-to-wire latency plus the link's.
     */
    private long lookahead;
    /**
     * How far a window reaches in cycles: the lookahead, at most {@link #MAX_WINDOW_CYCLES}. A
     * shorter window than the lookahead is always safe (it only adds barriers).
     */
    private long windowReach;
    /** Part of each switch ordinal. */
    private int[] ownerOf;
    /** Each switch ordinal's index in its part's {@link WindowPart#switches} and timeline. */
    private int[] localIndex;
    private WindowPart[] windowParts;
    private NetworkWorkers workers;
    private final NetworkWorkers.Part windowPart = this::runWindow;
    /**
     * The earliest cycle an injection waiting in a part's queue can reach its switch (its cycle
     * plus its link's latency), or Long.MAX_VALUE when none waits.
     */
    private long pendingEarliest = Long.MAX_VALUE;
    /**
     * At most the earliest arrival waiting in an outbox for the next window (the least next cycle
     * over the parts after the last window), or Long.MAX_VALUE when the outboxes are empty.
     */
    private long outboxEarliest = Long.MAX_VALUE;
    /** Set by the coordinating thread around a window (published to the workers by the barrier). */
    private boolean windowOpen;
    private long windowEnd;
    /** Which of the two outbox sets the current window's senders fill. */
    private int windowParity;
    /**
     * Whether the parts' timelines must be read again from every switch: at the first parallel
     * run, and after anything other than this class's windows, injections and links may have
     * scheduled events (a caller of {@link #runBefore} or {@link #drain}).
     */
    private boolean partsStale = true;

    /** Told of every packet a host receives. */
    @FunctionalInterface
    public interface DeliveryListener {
        /** @param record valid only during the call; its timestamp is the injection time in ns */
        void delivered(int hostNode, long cycle, PacketRecord record);
    }

    /**
     * Told of every packet a link hands to a switch, when it is scheduled. Arrivals at
     * one switch port are told in non-decreasing cycle order unless a link delays
     * packets ({@code delay}); same-cycle arrivals on one port reach the parser in the
     * order told. For observers such as a data-plane program's reference model.
     */
    @FunctionalInterface
    public interface ArrivalListener {
        /** @param port topology port (1-based); @param record valid only during the call */
        void arriving(int switchNode, int port, long cycle, PacketRecord record);
    }

    private NetworkEngine(Topology t, NetworkOptions o, ProgramRegistry registry) {
        this.topology = t;
        this.options = o;
        int n = t.nodes().size();
        List<Node> sw = t.switches();
        if (sw.isEmpty()) {
            throw new UserError(t.source() + ": a network needs at least one switch");
        }
        // programs and targets
        String regularTarget = BuiltinTopologies.DEFAULT_TARGET;
        for (Node s : sw) {
            if (s.isProgrammable()) {
                regularTarget = s.target();
                break;
            }
        }
        // every program first (cheap), so the memory estimate can refuse before any switch is allocated
        StageProgram[] programs = new StageProgram[sw.size()];
        for (int i = 0; i < sw.size(); i++) {
            Node s = sw.get(i);
            if (s.isProgrammable() && o.program() != null) {
                programs[i] = registry.build(o.program(), o.params());
            } else if (s.isProgrammable() && s.program() != null) {
                programs[i] = registry.build(s.program(), s.params().asMap());
            } else {
                programs[i] = null; // below: it parses the programs' shims
            }
        }
        // a router parses the shims the network's programs put under Ethernet, so it finds (and decrements) the
        // TTL of a shimmed frame as the operator's parser configuration would
        List<EtherTypeShim> shims = shimsOf(programs);
        for (int i = 0; i < sw.size(); i++) {
            if (programs[i] == null) {
                programs[i] = plainForwardingProgram(shims);
            }
        }
        this.frameCapacity = o.snapLength() != NetworkOptions.WINDOW_SNAP ? o.snapLength() : largestWindow(sw, regularTarget);
        NetworkMemoryEstimate.of(t, programs, frameCapacity).check(t.source(), Runtime.getRuntime().maxMemory());
        this.scratch = PacketRecord.allocate(frameCapacity);
        this.routing = Routing.of(t);
        this.hostMap = new HostMap(t);
        switches = new SwitchEngine[sw.size()];
        switchNode = new int[sw.size()];
        switchProgram = new String[sw.size()];
        switchOf = new int[n];
        Arrays.fill(switchOf, -1);
        portChannel = new int[sw.size()][];
        long clockHz = -1;
        String clockOwner = null;
        for (int i = 0; i < sw.size(); i++) {
            Node s = sw.get(i);
            TargetProfile profile = TargetProfiles.load(s.isProgrammable() ? s.target() : regularTarget);
            if (clockHz < 0) {
                clockHz = profile.clockHz();
                clockOwner = s.name() + " (" + profile.name() + ")";
            } else if (profile.clockHz() != clockHz) {
                throw new UserError(t.source() + ": switch " + s.name() + " (" + profile.name() + ") runs at "
                        + profile.clockHz() + " Hz but " + clockOwner + " at " + clockHz
                        + " Hz; one network needs one clock");
            }
            StageProgram program = programs[i];
            List<Long> rates = new ArrayList<>();
            for (int p = 1; p <= s.ports(); p++) {
                int l = t.linkAt(s.index(), p);
                rates.add(PortConfig.gbps(l < 0 ? UNLINKED_PORT_GBPS : t.link(l).rateGbps()));
            }
            SwitchConfig cfg = new SwitchConfig(profile, program, s.ports(), PortConfig.strictPriority(UNLINKED_PORT_GBPS),
                    o.enforce(), rates);
            switches[i] = new SwitchEngine(cfg, frameCapacity);
            switches[i].runOverWhen(() -> draining && onlyWithinRunOpsPending());
            switchNode[i] = s.index();
            switchProgram[i] = program.name();
            switchOf[s.index()] = i;
        }
        this.clock = new CycleClock(clockHz);
        scheduledArrivals = new long[sw.size()];
        timeline = new SwitchTimeline(sw.size());
        unlinkedDrops = new long[sw.size()];
        unlinkedByPort = new long[sw.size()][];
        hopLimitDrops = new long[sw.size()];
        lateHopDepartures = new long[sw.size()];
        maxHops = o.maxHops();
        for (int i = 0; i < sw.size(); i++) {
            if (sw.get(i).kind() == NodeKind.REGULAR_SWITCH) {
                switches[i].decrementTtl();
            }
        }
        checkTypedPorts(t, sw, o);

        // channels
        channels = 2 * t.links().size();
        chToSwitch = new int[channels];
        chToPort = new int[channels];
        chFromSwitch = new int[channels];
        chFromPort = new int[channels];
        chDropCauses = new String[channels][];
        Arrays.fill(chFromSwitch, -1);
        chToHostNode = new int[channels];
        chLatency = new long[channels];
        chRateBps = new long[channels];
        chImpair = new ImpairmentChain[channels];
        chLog = new GroundTruthLog[channels];
        chCarried = new long[channels];
        chLost = new long[channels];
        chLostBy = new long[channels][];
        chDuplicates = new long[channels];
        chDelayed = new long[channels];
        chReordered = new long[channels];
        chHold = new LinkHold[channels];
        Arrays.fill(chToSwitch, -1);
        Arrays.fill(chToHostNode, -1);
        hostChannel = new int[n];
        Arrays.fill(hostChannel, -1);
        for (int i = 0; i < sw.size(); i++) {
            portChannel[i] = new int[sw.get(i).ports()];
            Arrays.fill(portChannel[i], -1);
        }
        for (Link l : t.links()) {
            for (int dir = 0; dir < 2; dir++) {
                Endpoint from = dir == 0 ? l.a() : l.b();
                Endpoint to = dir == 0 ? l.b() : l.a();
                if (dir == 1 && !l.bidirectional()) {
                    continue;
                }
                int ch = 2 * l.id() + dir;
                chLatency[ch] = Math.max(1, clock.nsToCyclesCeil(checkLatency(t, l)));
                chRateBps[ch] = PortConfig.gbps(l.rateGbps());
                if (switchOf[to.node()] >= 0) {
                    chToSwitch[ch] = switchOf[to.node()];
                    chToPort[ch] = to.port() - 1;
                } else {
                    chToHostNode[ch] = to.node();
                }
                if (switchOf[from.node()] >= 0) {
                    portChannel[switchOf[from.node()]][from.port() - 1] = ch;
                    chFromSwitch[ch] = switchOf[from.node()];
                    chFromPort[ch] = from.port() - 1;
                } else {
                    hostChannel[from.node()] = ch;
                }
                KeyValues spec = l.impairmentsFrom(from.node(), from.port());
                if (!spec.isEmpty()) {
                    chImpair[ch] = impairments(l, dir, spec, o.seed());
                    chLog[ch] = new GroundTruthLog();
                    chLostBy[ch] = new long[chImpair[ch].size()];
                    chDropCauses[ch] = new String[chImpair[ch].size()];
                    for (int i = 0; i < chDropCauses[ch].length; i++) {
                        chDropCauses[ch][i] = LINK_DROP + chImpair[ch].part(i).describe();
                    }
                    if (chImpair[ch].maxHold() > 0) {
                        chHold[ch] = new LinkHold(chImpair[ch].maxHold(), frameCapacity);
                    }
                }
            }
        }
        for (int h : hostMap.sources()) {
            if (hostChannel[h] < 0) {
                throw new UserError(t.source() + ": source host " + t.node(h).name() + " has no link it can send on");
            }
        }
        injected = new long[n];
        delivered = new long[n];
        misdelivered = new long[n];
        latency = new LatencyHistogram("network_latency", LatencyMetrics.DEFAULT_INITIAL_HIGHEST_NS);

        // forwarding and departures
        ownDeparture = new DepartureListener[switches.length];
        for (int i = 0; i < switches.length; i++) {
            final int node = switchNode[i];
            final int ordinal = i;
            switches[i].forwarding((in, rec) -> {
                int p = routing.route(node, rec.dstIpv4(), rec); // the flow hash only for an ECMP choice
                return p == Routing.NO_ROUTE ? PortNumbers.UNSET : p - 1;
            });
            ownDeparture[i] = (cycle, port, slot, pool) ->
                    departed(ordinal, cycle, port, pool.record(slot), pool.hops(slot) + 1);
            switches[i].onDeparture(ownDeparture[i]);
        }
    }

    /**
     * Emulated time a packet's whole path may take, in cycles: a quarter of the cycle
     * counter's range, shared by the {@link NetworkOptions#maxHops()} links it may cross (the
     * rest is left to the trace's own time span, queueing and impairment delays), so no sum
     * of cycles a run computes can overflow.
     */
    static final long MAX_PATH_CYCLES = Long.MAX_VALUE / 4;

    /** A link's latency, refused (one line naming the topology and the field) when its hops would overflow emulated time. */
    private long checkLatency(Topology t, Link l) {
        long maxNs = clock.cyclesToNs(MAX_PATH_CYCLES / maxHops);
        if (l.latencyNs() > maxNs) {
            throw new UserError(t.source() + ": links[" + l.id() + "]: latency_ns " + l.latencyNs()
                    + " would overflow emulated time (at most " + maxNs + " ns, so that " + maxHops
                    + " hops fit 2^61 cycles at " + clock.hz() + " Hz)");
        }
        return l.latencyNs();
    }

    /** The largest parser window among the switches' targets: what no switch's parser would miss. */
    private static int largestWindow(List<Node> switches, String regularTarget) {
        TreeSet<String> targets = new TreeSet<>(); // each target loaded once, not once per switch
        for (Node s : switches) {
            targets.add(s.isProgrammable() ? s.target() : regularTarget);
        }
        int w = 1;
        for (String target : targets) {
            w = Math.max(w, TargetProfiles.load(target).parser().windowBytes());
        }
        return w;
    }

    /** Frame bytes every packet keeps through the network (the snap length). */
    public int frameCapacity() {
        return frameCapacity;
    }

    /** Builds the network of {@code t}; every switch program is checked against its target. */
    public static NetworkEngine build(Topology t, NetworkOptions o) {
        return build(t, o, new ProgramRegistry());
    }

    /** As {@link #build(Topology, NetworkOptions)}, the switches' programs built by {@code programs} (the run layer passes the plug-ins'). */
    public static NetworkEngine build(Topology t, NetworkOptions o, ProgramRegistry programs) {
        return new NetworkEngine(t, o, programs);
    }

    /** A program with no stages: the switch forwards by routing only (parser, TM and deparser latencies still apply). */
    public static StageProgram plainForwardingProgram() {
        return plainForwardingProgram(List.of());
    }

    /** As {@link #plainForwardingProgram()}, its parser knowing {@code shims} after Ethernet (the default graph without any). */
    public static StageProgram plainForwardingProgram(List<EtherTypeShim> shims) {
        ProgramBuilder b = ProgramBuilder.create(PLAIN_PROGRAM, "no stages; forwarding by the topology's routing");
        if (!shims.isEmpty()) {
            b.parser(EtherTypeShim.spec(shims));
        }
        return b.build();
    }

    /** The EtherType shims of the given programs (nulls skipped), one per EtherType, the first program's first. */
    static List<EtherTypeShim> shimsOf(StageProgram[] programs) {
        List<EtherTypeShim> shims = new ArrayList<>();
        for (StageProgram p : programs) {
            if (p == null) {
                continue;
            }
            for (EtherTypeShim s : EtherTypeShim.in(p.parser().graph())) {
                boolean taken = false;
                for (EtherTypeShim t : shims) {
                    taken |= t.etherType() == s.etherType() || t.header().equals(s.header());
                }
                if (!taken) {
                    shims.add(s);
                }
            }
        }
        return shims;
    }

    /**
     * Seed of the impairment at {@code position} of a link direction's chain: a fixed
     * mix of the run seed, link id, direction and position, so each impairment has
     * its own independent stream and adding one does not change the others.
     */
    public static long impairmentSeed(long runSeed, int linkId, int direction, int position) {
        long h = FlowKey.mix(runSeed ^ 0x6C696E6B5F696D70L);
        h = FlowKey.mix(h + (2L * linkId + direction));
        return FlowKey.mix(h + position);
    }

    private static ImpairmentChain impairments(Link l, int dir, KeyValues spec, long seed) {
        return LinkImpairments.chain(l, spec, i -> impairmentSeed(seed, l.id(), dir, i));
    }

    // ------------------------------------------------------------------ running

    /**
     * A trace packet enters the network at {@code cycle} (non-decreasing across calls):
     * it is put on hosts, rewritten and sent on its source host's link. The record is
     * copied; the caller keeps it.
     */
    public void inject(long cycle, PacketRecord traceRecord) {
        if (cycle < lastInjection) {
            throw new IllegalArgumentException("injection at cycle " + cycle + " after one at " + lastInjection);
        }
        lastInjection = cycle;
        // between two injections only this class schedules switch events (control planes and
        // scripts act before the first or inside a switch's own run): no rescan of every switch
        boolean inWindows = runsInWindows();
        if (inWindows) {
            // an injection's packet reaches a switch at least one cycle later: the network may lag
            // behind the injections, and runs only whole windows that end by this one
            runParallel(cycle, true);
        } else {
            runSerial(cycle);
        }
        now = Math.max(now, cycle);
        // the fields only, not the frame: the host map makes every record IPv4, whose frame is then
        // written from its fields alone (FrameSynthesizer.rebuildFrame of an IP record never reads
        // the bytes it carried), so copying the trace's frame bytes would be work thrown away
        scratch.buffer().putBytes(scratch.offset(), traceRecord.buffer(), traceRecord.offset(),
                PacketRecord.METADATA_BYTES);
        scratch.noFrame();
        int src = hostMap.assign(scratch);
        scratch.timestampNs(clock.cyclesToNs(cycle));
        injected[src]++;
        int ch = hostChannel[src];
        if (inWindows) {
            // the part that owns the link's far end builds the frame and sends it, at the start of
            // its next window: no window has reached this cycle yet (they end by it), and the packet
            // cannot arrive before cycle + the link's latency, which the next window starts by
            int to = chToSwitch[ch];
            windowParts[to >= 0 ? ownerOf[to] : 0].injections.add(cycle, ch, scratch);
            pendingEarliest = Math.min(pendingEarliest, cycle + chLatency[ch]);
            return;
        }
        frameUnlessSwitchWrites(ch, scratch);
        transmit(ch, cycle, scratch, 0, null);
    }

    /**
     * Gives an injected record (IPv4 fields, no frame bytes: see {@link #inject}) the frame its
     * fields describe, unless its link hands it straight to a switch: a switch gives a frameless
     * arrival that frame itself, written into its pool slot at the same frame capacity (see
     * {@link SwitchEngine#scheduleArrival}), the same bytes as {@link FrameSynthesizer#rebuildFrame}
     * writes here but without copying them from here into the slot. A link whose impairments read
     * the packet (a drop is captured with its bytes), a listener told of the arrival, or a host at
     * the far end needs the frame before the switch would write it.
     */
    private void frameUnlessSwitchWrites(int ch, PacketRecord rec) {
        if (chImpair[ch] != null || chToSwitch[ch] < 0 || arrivalListener != null) {
            FrameSynthesizer.rebuildFrame(rec); // the frame of the addresses the host map assigned
        }
    }

    /**
     * Sends the trace packets waiting in {@code part}'s injection queue on their hosts' links, in
     * injection order (each link's packets in the order the serial loop sends them), from inside
     * window part {@code w}, or on the caller ({@code w} null) when no window runs.
     */
    private void sendInjections(WindowPart part, WindowPart w) {
        InjectionQueue q = part.injections;
        for (int i = 0, n = q.size(); i < n; i++) {
            PacketRecord rec = q.record(i);
            frameUnlessSwitchWrites(q.channel(i), rec);
            transmit(q.channel(i), q.cycle(i), rec, 0, w);
        }
        q.clear();
    }

    /**
     * What waits for the next window, handed over from the caller (no window runs): every part's
     * injections sent on their links, then the arrivals in the outboxes scheduled into their
     * switches, so the switches hold everything pending, as after a run on one thread.
     */
    private void flushPending() {
        if (windowParts == null) {
            return;
        }
        if (pendingEarliest != Long.MAX_VALUE) {
            for (WindowPart part : windowParts) {
                sendInjections(part, null);
            }
            pendingEarliest = Long.MAX_VALUE;
        }
        if (outboxEarliest != Long.MAX_VALUE) {
            for (WindowPart from : windowParts) {
                for (ArrivalOutbox[] parity : from.outboxes) {
                    for (ArrivalOutbox box : parity) {
                        if (box != null) {
                            scheduleAll(box);
                        }
                    }
                }
            }
            outboxEarliest = Long.MAX_VALUE;
        }
    }

    /** Every switch's event loop throws {@link dev.rmtemu.emulator.engine.RunStopped} once {@code stop} says so. */
    public void stopWhen(BooleanSupplier stop) {
        for (SwitchEngine s : switches) {
            s.stopWhen(stop);
        }
    }

    /**
     * Runs until no event is left anywhere. Packets links still hold for reordering
     * (fewer later packets came than they waited for) are then released, in link and
     * arrival order, one cycle after the last event, and the network runs again.
     */
    public void drain() {
        draining = true;
        timelineStale = true;
        partsStale = true;
        try {
            drainLinks();
        } finally {
            draining = false;
            closeWorkers(); // the run is over; a later injection starts them again
        }
    }

    /** Nothing left anywhere but users' within-run control operations: no packet in a switch or on a link. */
    private boolean onlyWithinRunOpsPending() {
        if (pendingEarliest != Long.MAX_VALUE || outboxEarliest != Long.MAX_VALUE) {
            return false;
        }
        for (SwitchEngine s : switches) {
            if (!s.onlyWithinRunOpsPending()) {
                return false;
            }
        }
        for (int ch = 0; ch < channels; ch++) {
            if (chHold[ch] != null && chHold[ch].count() > 0) {
                return false;
            }
        }
        return true;
    }

    private void drainLinks() {
        while (true) {
            runBefore(Long.MAX_VALUE);
            boolean released = false;
            for (int ch = 0; ch < channels; ch++) {
                LinkHold hold = chHold[ch];
                while (hold != null && hold.count() > 0) {
                    release(ch, 0, now + 1, null);
                    released = true;
                }
            }
            if (!released) {
                return;
            }
        }
    }

    /**
     * Runs every switch event at a cycle below {@code limit}, earliest first (ties: lower
     * node index). Reads every switch's next event first, so events a caller scheduled on a
     * switch directly are seen.
     */
    public void runBefore(long limit) {
        if (runsInWindows()) {
            partsStale = true; // a caller may have scheduled events on a switch directly
            runParallel(limit, false);
            return;
        }
        timelineStale = true;
        runSerial(limit);
    }

    /**
     * {@link #runBefore} on one thread. The next-event cycles are kept in a {@link SwitchTimeline}:
     * running a switch changes only its own queue and, through its links, adds arrivals to others
     * (which {@link #arrive} folds in), so a step costs O(log switches), not a read of every switch.
     */
    private void runSerial(long limit) {
        SwitchEngine[] sw = switches;
        SwitchTimeline t = timeline;
        if (timelineStale) {
            for (int i = 0; i < sw.length; i++) {
                t.set(i, sw[i].nextEventCycle());
            }
            timelineStale = false;
        }
        while (true) {
            int best = t.first();
            long bestCycle = t.next(best);
            if (bestCycle >= limit) {
                return;
            }
            sw[best].runUntil(bestCycle + 1, 0);
            now = Math.max(now, sw[best].now()); // a control operation after the last event does not move it
            t.set(best, sw[best].nextEventCycle());
        }
    }

    /** A packet leaves a switch, which was the {@code hops}-th switch on its way. */
    private void departed(int ordinal, long cycle, int port, PacketRecord rec, int hops) {
        WindowPart w = windowOpen ? windowParts[ownerOf[ordinal]] : null;
        int ch = portChannel[ordinal][port];
        if (ch < 0) {
            unlinkedDrops[ordinal]++;
            if (unlinkedByPort[ordinal] == null) {
                unlinkedByPort[ordinal] = new long[portChannel[ordinal].length];
            }
            unlinkedByPort[ordinal][port]++;
            return;
        }
        if (hops > maxHops / 2) {
            lateHopDepartures[ordinal]++;
        }
        if (hops >= maxHops && chToSwitch[ch] >= 0) {
            hopLimitDrops[ordinal]++; // it would enter a switch beyond its budget: a loop, or a path too long
            return;
        }
        transmit(ch, cycle, rec, hops, w);
    }

    /**
     * The packet's last bit enters channel {@code ch} at {@code cycle}, its frame as its switch's
     * deparser emitted it, having passed {@code hops} switches; {@code w} is the part of the
     * sending switch inside a parallel window, else null.
     */
    private void transmit(int ch, long cycle, PacketRecord rec, int hops, WindowPart w) {
        ImpairmentDecision decision = w == null ? this.decision : w.decision;
        long index = chCarried[ch]++;
        long at = cycle + chLatency[ch];
        int copies = 0;
        ImpairmentChain chain = chImpair[ch];
        if (chain != null) {
            long stamp = rec.timestampNs();
            rec.timestampNs(clock.cyclesToNs(cycle));
            chain.decide(rec, index, decision);
            rec.timestampNs(stamp);
            GroundTruthLog log = chLog[ch];
            if (decision.dropped()) {
                chLost[ch]++;
                chLostBy[ch][decision.dropCause()]++;
                log.add(index, GroundTruthLog.DROP, decision.dropCause());
                linkDropped(ch, cycle, rec, decision.dropCause());
                return;
            }
            long extra = decision.extraDelayNs();
            if (extra > 0) {
                at += clock.nsToCyclesCeil(extra);
                chDelayed[ch]++;
                log.add(index, GroundTruthLog.DELAY, extra);
            }
            copies = decision.copies();
            if (copies > 0) {
                chDuplicates[ch] += copies;
                log.add(index, GroundTruthLog.DUPLICATE, copies);
            }
            if (decision.holdPackets() > 0 && chHold[ch].hold(rec, hops, index, decision.holdPackets(), copies, at)) {
                return;
            }
        }
        arriveWithCopies(ch, at, rec, hops, copies, w);
        LinkHold hold = chHold[ch];
        if (hold != null && hold.count() > 0) {
            hold.overtaken();
            int slot;
            while ((slot = hold.due()) >= 0) {
                release(ch, slot, at, w);
            }
        }
    }

    /**
     * A link's impairment dropped a packet: the switch that sent it records it at its egress port
     * (as its drops capture files every drop); a packet a host sent is recorded by the switch at
     * the link's far end, at its ingress port. The sender, because inside a parallel window only
     * the sending switch's thread may write its files.
     */
    private void linkDropped(int ch, long cycle, PacketRecord rec, int cause) {
        String name = chDropCauses[ch][cause];
        if (chFromSwitch[ch] >= 0) {
            switches[chFromSwitch[ch]].linkDropped(chFromPort[ch], cycle, name, rec);
        } else if (chToSwitch[ch] >= 0) {
            switches[chToSwitch[ch]].linkDropped(chToPort[ch], cycle, name, rec);
        }
    }

    private void arriveWithCopies(int ch, long at, PacketRecord rec, int hops, int copies, WindowPart w) {
        arrive(ch, at, rec, hops, w);
        if (copies > 0) {
            long gap = serialisationCycles(rec.wireLength(), chRateBps[ch]);
            for (int i = 1; i <= copies; i++) {
                arrive(ch, at + i * gap, rec, hops, w);
            }
        }
    }

    /** A held packet leaves the link right behind the packet that completed its overtakes (or at {@code notBefore}). */
    private void release(int ch, int slot, long notBefore, WindowPart w) {
        LinkHold hold = chHold[ch];
        chReordered[ch]++;
        chLog[ch].add(hold.linkIndex(slot), GroundTruthLog.REORDER, hold.overtakes(slot));
        arriveWithCopies(ch, Math.max(notBefore, hold.ownArrival(slot)), hold.record(slot), hold.hops(slot),
                hold.copies(slot), w);
        hold.remove(slot);
    }

    private long serialisationCycles(int bytes, long rateBps) {
        long bits = (long) (bytes + WIRE_OVERHEAD_BYTES) * Byte.SIZE;
        // bits × clock / rate, rounded up; bits × clock stays far inside a long
        return Math.max(1, (bits * clock.hz() + rateBps - 1) / rateBps);
    }

    private void arrive(int ch, long at, PacketRecord rec, int hops, WindowPart w) {
        if (w != null) {
            arriveInWindow(ch, at, rec, hops, w);
            return;
        }
        int s = chToSwitch[ch];
        if (s >= 0) {
            if (arrivalListener != null) {
                arrivalListener.arriving(switchNode[s], chToPort[ch] + 1, at, rec);
            }
            scheduledArrivals[s]++;
            switches[s].scheduleArrival(at, chToPort[ch], rec, hops);
            if (windowed) {
                windowParts[ownerOf[s]].timeline.earlier(localIndex[s], at);
            } else {
                timeline.earlier(s, at);
            }
            return;
        }
        int h = chToHostNode[ch];
        delivered[h]++;
        if (!topology.node(h).address().contains(rec.dstIpv4())) {
            misdelivered[h]++;
        }
        latency.record(clock.cyclesToNs(at) - rec.timestampNs());
        if (at > now) {
            now = at;
        }
        if (deliveryListener != null) {
            deliveryListener.delivered(h, at, rec);
        }
    }

    /** Told of every delivery, in the network's event order (the network then runs on one thread). */
    public void onDelivery(DeliveryListener l) {
        this.deliveryListener = l;
        redecideThreads();
    }

    /** Told of every packet as it reaches a switch: its frame as the last deparser emitted it (a program's shims included); the network then runs on one thread. */
    public void onArrival(ArrivalListener l) {
        this.arrivalListener = l;
        redecideThreads();
    }

    // ------------------------------------------------------------------ threads

    /**
     * The longest window, in cycles (about 13 µs at tofino1's 1.22 GHz, some 100 packets of a 40 Gb/s
     * trace). Without a switch-to-switch link (one switch, or switches linked only through hosts)
     * nothing bounds the lookahead, and uncapped the network would lag behind its injections until
     * the drain: every packet of the trace would wait in its first switch's event queue, whose
     * every step then costs the log of the whole trace.
     */
    static final long MAX_WINDOW_CYCLES = 1L << 14;

    /** Threads the switches run on (decided at the first injection or run; 1 before). */
    public int threadsUsed() {
        return Math.max(1, threadsUsed);
    }

    /** Whether the switches run in windows (decided at the first injection or run), not event by event. */
    public boolean windowed() {
        return windowed;
    }

    /**
     * Why the network runs on one thread although more were asked for, as one line (for a
     * warning), or null. Decided at the first injection or run.
     */
    public String threadNote() {
        return threadNote;
    }

    /**
     * A window's reach in cycles: the least, over switch-to-switch links, of the sending switch's
     * egress-to-wire latency plus the link's latency; 0 before a windowed run.
     */
    public long lookaheadCycles() {
        return lookahead;
    }

    private boolean runsInWindows() {
        if (threadsUsed == 0) {
            decideThreads();
        }
        return windowed;
    }

    /** A listener came after the decision: decide again at the next run (between windows, nothing is pending). */
    private void redecideThreads() {
        flushPending(); // into the switches, before the parts that hold them go
        closeWorkers();
        threadsUsed = 0;
    }

    private void decideThreads() {
        threadNote = null;
        int wanted = Math.max(1, Math.min(options.threadsToUse(), switches.length));
        String why = serialReason();
        if (why != null) {
            threadsUsed = 1;
            windowed = false;
            threadNote = wanted > 1 ? why + "; running on one thread" : null;
            return;
        }
        long reach = MAX_PATH_CYCLES;
        for (int ch = 0; ch < channels; ch++) {
            if (chToSwitch[ch] >= 0 && chLatency[ch] > 0 && isSwitchChannel(ch)) {
                // an event at cycle c sends nothing before c + egress-to-wire (a dequeued packet
                // still passes the egress parser, pipeline and deparser), which then crosses the link
                reach = Math.min(reach, chLatency[ch] + switches[chFromSwitch[ch]].egressToWireCycles());
            }
        }
        lookahead = reach;
        windowReach = Math.min(reach, MAX_WINDOW_CYCLES);
        ownerOf = new int[switches.length];
        localIndex = new int[switches.length];
        windowParts = new WindowPart[wanted];
        for (int w = 0; w < wanted; w++) {
            // contiguous blocks of switch ordinals: topologies list neighbours together (a fat
            // tree's pods, a chain's links), so most links stay inside one part and its thread
            int from = (int) ((long) switches.length * w / wanted);
            int to = (int) ((long) switches.length * (w + 1) / wanted);
            int[] mine = new int[to - from];
            for (int s = from; s < to; s++) {
                ownerOf[s] = w;
                localIndex[s] = s - from;
                mine[s - from] = s;
            }
            windowParts[w] = new WindowPart(w, mine, wanted, frameCapacity);
        }
        partsStale = true;
        threadsUsed = wanted;
        windowed = true;
    }

    /** Whether channel {@code ch} leaves a switch (its sender is a switch port). */
    private boolean isSwitchChannel(int ch) {
        Link l = topology.link(ch / 2);
        Endpoint from = ch % 2 == 0 ? l.a() : l.b();
        return switchOf[from.node()] >= 0;
    }

    /** Why the switches cannot run on several threads with the same output, or null. */
    private String serialReason() {
        for (Link l : topology.links()) {
            if (l.latencyNs() == 0 && switchOf[l.a().node()] >= 0 && switchOf[l.b().node()] >= 0) {
                return topology.source() + ": links[" + l.id() + "] (" + topology.node(l.a().node()).name() + " - "
                        + topology.node(l.b().node()).name() + ") has latency_ns 0, which leaves the switches no"
                        + " lookahead to run ahead of each other";
            }
        }
        if (deliveryListener != null || arrivalListener != null) {
            return "a listener follows the network's deliveries or arrivals in event order";
        }
        for (int s = 0; s < switches.length; s++) {
            SwitchEngine e = switches[s];
            if (e.hasControlEvents() || e.departureListener() != ownDeparture[s]) {
                return "switch " + switchNode(s).name() + " runs control-plane code in its event loop (control"
                        + " operations, a packet generator or a departure listener of its own)";
            }
            if (e.sendsDigests()) {
                return "switch " + switchNode(s).name() + " sends learning digests to the export journal, in event order";
            }
        }
        return null;
    }

    /**
     * Runs switch events before {@code limit} in windows on the workers: every event before it,
     * or with {@code wholeWindows} only the windows that fit before it whole (an injection lets
     * the network lag behind it rather than cut a window short). At the end the arrivals still
     * in outboxes are scheduled, so the switches hold everything pending, as after a run on one
     * thread.
     */
    private void runParallel(long limit, boolean wholeWindows) {
        timelineStale = true; // the switches move without the one-thread timeline
        if (partsStale) {
            for (WindowPart w : windowParts) {
                for (int i = 0; i < w.switches.length; i++) {
                    w.timeline.set(i, switches[w.switches[i]].nextEventCycle());
                }
            }
            partsStale = false;
        }
        long t = Math.min(pendingEarliest, outboxEarliest);
        for (WindowPart w : windowParts) {
            t = Math.min(t, w.timeline.next(w.timeline.first()));
        }
        long reach = windowReach;
        if (workers == null && (wholeWindows ? t <= limit - reach : t < limit)) {
            workers = new NetworkWorkers(threadsUsed, windowParts.length);
        }
        while (wholeWindows ? t <= limit - reach : t < limit) {
            windowEnd = t > limit - reach ? limit : t + reach;
            windowParity ^= 1;
            windowOpen = true;
            workers.runAll(windowPart);
            windowOpen = false;
            pendingEarliest = Long.MAX_VALUE; // every part sent its injections at the window's start
            t = afterWindow();
            // what the window sent across parts: the receiving parts schedule it at the next
            // window's start (in parallel, not here on the caller), which t, the least of every
            // part's next event and outbox arrival, starts by
            outboxEarliest = t;
        }
        if (!wholeWindows) {
            flushPending(); // with whole windows they wait for the next window's parts
        }
    }

    /**
     * One part of a window: the arrivals sent to its switches, then those of its switches with an
     * event before the window's end, earliest first, up to that end (what one runs cannot reach
     * another inside the window, so only the switches with work are touched).
     */
    private void runWindow(int part) {
        WindowPart me = windowParts[part];
        me.nextCycle = Long.MAX_VALUE;
        me.failedSwitch = -1;
        int previous = windowParity ^ 1;
        for (WindowPart from : windowParts) {
            ArrivalOutbox box = from.outboxes[previous][part];
            if (box != null) {
                scheduleAll(box);
            }
        }
        sendInjections(me, me);
        long end = windowEnd;
        long reached = me.now;
        SwitchTimeline timeline = me.timeline;
        int[] mine = me.switches;
        while (true) {
            int i = timeline.first();
            if (timeline.next(i) >= end) {
                break;
            }
            int s = mine[i];
            SwitchEngine e = switches[s];
            me.failedSwitch = s;
            e.runUntil(end, 0);
            reached = Math.max(reached, e.now());
            timeline.set(i, e.nextEventCycle());
        }
        me.failedSwitch = -1;
        me.now = reached;
        me.nextCycle = Math.min(me.nextCycle, timeline.next(timeline.first()));
    }

    /** The outbox's arrivals into their switches (and their parts' timelines), in the order they were sent. */
    private void scheduleAll(ArrivalOutbox box) {
        for (int i = 0, n = box.size(); i < n; i++) {
            int s = box.toSwitch(i);
            long at = box.at(i);
            scheduledArrivals[s]++;
            switches[s].scheduleArrival(at, box.port(i), box.record(i), box.hops(i));
            windowParts[ownerOf[s]].timeline.earlier(localIndex[s], at);
        }
        box.clear();
    }

    /** A link arrival inside a window: into a switch of the same part now, else into the outbox for its part. */
    private void arriveInWindow(int ch, long at, PacketRecord rec, int hops, WindowPart w) {
        int s = chToSwitch[ch];
        if (s >= 0) {
            if (at < windowEnd && chFromSwitch[ch] >= 0) { // a host's packet is sent before the window's switches run
                throw new IllegalStateException("arrival at cycle " + at + " inside the window ending at " + windowEnd);
            }
            int owner = ownerOf[s];
            if (owner == w.index) {
                scheduledArrivals[s]++;
                switches[s].scheduleArrival(at, chToPort[ch], rec, hops);
                w.timeline.earlier(localIndex[s], at);
            } else {
                if (at < w.nextCycle) {
                    w.nextCycle = at;
                }
                w.outboxes[windowParity][owner].add(at, s, chToPort[ch], rec, hops);
            }
            return;
        }
        int h = chToHostNode[ch];
        w.delivered(h, at, clock.cyclesToNs(at) - rec.timestampNs(), !topology.node(h).address().contains(rec.dstIpv4()));
    }

    /**
     * After the barrier: rethrows a part's failure, applies the deliveries, and returns the
     * earliest cycle anything is pending at.
     */
    private long afterWindow() {
        RuntimeException failure = null;
        long failedAt = Long.MAX_VALUE;
        int failedSwitch = Integer.MAX_VALUE;
        for (WindowPart w : windowParts) {
            Throwable t = workers.failure(w.index);
            if (t == null) {
                continue;
            }
            if (t instanceof Error e) {
                closeWorkers();
                throw e;
            }
            long at = w.failedSwitch >= 0 ? switches[w.failedSwitch].now() : -1;
            int s = w.failedSwitch >= 0 ? w.failedSwitch : -1;
            if (failure == null || at < failedAt || at == failedAt && s < failedSwitch) {
                failure = t instanceof RuntimeException r ? r : new IllegalStateException(t);
                failedAt = at;
                failedSwitch = s;
            }
        }
        if (failure != null) {
            closeWorkers();
            throw failure;
        }
        long next = Long.MAX_VALUE;
        for (WindowPart w : windowParts) {
            for (int i = 0, n = w.deliveries(); i < n; i++) {
                int h = w.deliveryHost(i);
                delivered[h]++;
                if (w.deliveryMisdelivered(i)) {
                    misdelivered[h]++;
                }
                latency.record(w.deliveryLatencyNs(i));
                now = Math.max(now, w.deliveryCycle(i));
            }
            w.clearDeliveries();
            now = Math.max(now, w.now);
            next = Math.min(next, w.nextCycle);
        }
        return next;
    }

    private void closeWorkers() {
        if (workers != null) {
            workers.close();
            workers = null;
        }
    }

    // ------------------------------------------------------------------ results

    public Topology topology() {
        return topology;
    }

    public Routing routing() {
        return routing;
    }

    public NetworkOptions options() {
        return options;
    }

    public CycleClock clock() {
        return clock;
    }

    /** The latest cycle anything happened at (an event, an injection or a delivery). */
    public long now() {
        return now;
    }

    public int switchCount() {
        return switches.length;
    }

    /** Switch {@code ordinal} (switches in node order). */
    public SwitchEngine switchEngine(int ordinal) {
        return switches[ordinal];
    }

    /** The engine of switch node {@code name}. */
    public SwitchEngine switchEngine(String name) {
        int node = topology.nodeIndex(name);
        if (node < 0 || switchOf[node] < 0) {
            throw new IllegalArgumentException("no switch named " + name);
        }
        return switches[switchOf[node]];
    }

    public Node switchNode(int ordinal) {
        return topology.node(switchNode[ordinal]);
    }

    public String switchProgram(int ordinal) {
        return switchProgram[ordinal];
    }

    /** Packets a switch sent out of ports without a link (lost there). */
    public long unlinkedDrops(int ordinal) {
        return unlinkedDrops[ordinal];
    }

    /** Packets a switch sent out of ports without a link, by topology port (engine port + 1), in port order. */
    public SortedMap<Integer, Long> unlinkedDropsByPort(int ordinal) {
        TreeMap<Integer, Long> m = new TreeMap<>();
        long[] row = unlinkedByPort[ordinal];
        for (int p = 0; row != null && p < row.length; p++) {
            if (row[p] > 0) {
                m.put(p + 1, row[p]);
            }
        }
        return m;
    }

    /** Packets switch {@code ordinal} sent on that had used up the hop budget (dropped as hop_limit). */
    public long hopLimitDrops(int ordinal) {
        return hopLimitDrops[ordinal];
    }

    /**
     * What a user should know about the run that does not stop it: a forwarding loop (packets
     * dropped at the hop limit), naming the switches that carried packets past half the hop
     * budget, in node order. Empty when nothing happened.
     */
    public List<String> warnings() {
        long dropped = 0;
        for (long d : hopLimitDrops) {
            dropped += d;
        }
        if (dropped == 0) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (int s = 0; s < switches.length; s++) {
            if (lateHopDepartures[s] > 0) {
                names.add(topology.node(switchNode[s]).name());
            }
        }
        return List.of("forwarding loop: " + dropped + " packets dropped as hop_limit after " + maxHops
                + " switch hops (--max-hops); the loop goes through " + String.join(", ", names));
    }

    /** Parameters a user types whose values are egress ports of the program's switch. */
    static final List<String> PORT_PARAMS = List.of("port", "collector");

    /**
     * A port a user typed (--param port=N) must exist on every switch that runs the program:
     * a program's ports are the engine's, 0 .. ports - 1 (topology port N is program port N - 1),
     * or {@link PortNumbers#UNSET} to leave forwarding to the topology's routing.
     */
    private static void checkTypedPorts(Topology t, List<Node> sw, NetworkOptions o) {
        if (o.program() == null) {
            return;
        }
        for (String name : PORT_PARAMS) {
            String typed = o.params().get(name);
            if (typed == null) {
                continue;
            }
            long port;
            try {
                port = Long.parseLong(typed.strip());
            } catch (NumberFormatException e) {
                continue; // the program's own parameter check names it
            }
            for (Node s : sw) {
                if (s.isProgrammable() && port != PortNumbers.UNSET && (port < 0 || port >= s.ports())) {
                    throw new UserError("--param " + name + "=" + typed + ": switch " + s.name() + " of " + t.source()
                            + " has program ports 0.." + (s.ports() - 1) + " (topology ports 1.." + s.ports()
                            + "; program port = topology port - 1), or " + PortNumbers.UNSET
                            + " to let the topology's routing forward");
                }
            }
        }
    }

    /** Packets a host injected / received / received although addressed elsewhere. */
    public long injected(int hostNode) {
        return injected[hostNode];
    }

    public long delivered(int hostNode) {
        return delivered[hostNode];
    }

    public long misdelivered(int hostNode) {
        return misdelivered[hostNode];
    }

    /** End-to-end latency, injection → delivery, in ns. */
    public LatencyHistogram latency() {
        return latency;
    }

    /** Packets that entered a link direction (direction 0 = a→b). */
    public long carried(int linkId, int direction) {
        return chCarried[2 * linkId + direction];
    }

    public long lost(int linkId, int direction) {
        return chLost[2 * linkId + direction];
    }

    /** Packets lost on a link direction by the impairment at {@code position} of its chain. */
    public long lostBy(int linkId, int direction, int position) {
        long[] by = chLostBy[2 * linkId + direction];
        return by == null ? 0 : by[position];
    }

    public long duplicates(int linkId, int direction) {
        return chDuplicates[2 * linkId + direction];
    }

    public long delayed(int linkId, int direction) {
        return chDelayed[2 * linkId + direction];
    }

    /** Packets a link direction held back and released after later ones. */
    public long reordered(int linkId, int direction) {
        return chReordered[2 * linkId + direction];
    }

    /** Packets a link direction holds right now (in flight on the link). */
    public long held(int linkId, int direction) {
        LinkHold h = chHold[2 * linkId + direction];
        return h == null ? 0 : h.count();
    }

    /** Reorders not done because the link's hold buffer was full. */
    public long holdsRefused(int linkId, int direction) {
        LinkHold h = chHold[2 * linkId + direction];
        return h == null ? 0 : h.refused();
    }

    /** The impairments of a link direction, or null if it has none. */
    public ImpairmentChain impairments(int linkId, int direction) {
        return chImpair[2 * linkId + direction];
    }

    /** What the impairments of a link direction did (null if it has none); indices are positions on the link. */
    public GroundTruthLog groundTruth(int linkId, int direction) {
        return chLog[2 * linkId + direction];
    }

    /** Network-wide totals. */
    public NetworkTotals totals() {
        long inj = 0;
        long del = 0;
        long mis = 0;
        for (int i = 0; i < injected.length; i++) {
            inj += injected[i];
            del += delivered[i];
            mis += misdelivered[i];
        }
        long lost = 0;
        long dup = 0;
        long inFlight = 0;
        for (int c = 0; c < channels; c++) {
            lost += chLost[c];
            dup += chDuplicates[c];
            inFlight += chHold[c] == null ? 0 : chHold[c].count();
        }
        long swDropped = 0;
        long created = 0;
        long unlinked = 0;
        long hopLimit = 0;
        for (int s = 0; s < switches.length; s++) {
            swDropped += switches[s].counters().droppedTotal();
            // arrivals still on their way in are in flight, not yet counted in by the switch
            created += switches[s].counters().packetsIn() + switches[s].counters().mirrored()
                    + switches[s].counters().replicated()
                    - (scheduledArrivals[s] - switches[s].pendingArrivals());
            unlinked += unlinkedDrops[s];
            hopLimit += hopLimitDrops[s];
            inFlight += switches[s].inFlight() + switches[s].pendingArrivals();
        }
        for (int w = 0; windowParts != null && w < windowParts.length; w++) {
            inFlight += windowParts[w].injections.size(); // injected, not yet sent on their hosts' links
            for (ArrivalOutbox[] parity : windowParts[w].outboxes) {
                for (ArrivalOutbox box : parity) {
                    inFlight += box == null ? 0 : box.size(); // left a switch, not yet scheduled at the next
                }
            }
        }
        return new NetworkTotals(inj, del, mis, swDropped, lost, dup, created, unlinked, hopLimit, inFlight);
    }

    /**
     * After {@link #drain}: throws unless every switch conserves packets and
     * injected + link duplicates + packets created in switches (multicast copies,
     * generated packets) = delivered + dropped in switches + lost on links + sent
     * out of unlinked ports + dropped at the hop limit + in flight (which must be 0).
     */
    public void checkConservation() {
        checkConservation(true);
    }

    /**
     * As {@link #checkConservation()}; with {@code drained} false (a run stopped early) packets
     * may still be in flight, and must be counted there.
     */
    public void checkConservation(boolean drained) {
        for (SwitchEngine s : switches) {
            s.checkConservation();
        }
        NetworkTotals t = totals();
        long in = t.injected() + t.linkDuplicates() + t.createdInSwitches();
        long out = t.delivered() + t.switchDropped() + t.linkLost() + t.unlinkedPortDrops() + t.hopLimitDrops()
                + t.inFlight();
        if (in != out || drained && t.inFlight() != 0) {
            throw new IllegalStateException("network conservation violated: " + t);
        }
    }

    /** Totals of a network run; see {@link NetworkEngine#checkConservation()}. */
    public record NetworkTotals(long injected, long delivered, long misdelivered, long switchDropped, long linkLost,
                                long linkDuplicates, long createdInSwitches, long unlinkedPortDrops, long hopLimitDrops,
                                long inFlight) {
        public Map<String, Long> toMap() {
            LinkedHashMap<String, Long> m = new LinkedHashMap<>();
            m.put("injected", injected);
            m.put("delivered", delivered);
            m.put("misdelivered", misdelivered);
            m.put("switch_dropped", switchDropped);
            m.put("link_lost", linkLost);
            m.put("link_duplicates", linkDuplicates);
            m.put("created_in_switches", createdInSwitches);
            m.put("unlinked_port_drops", unlinkedPortDrops);
            m.put("hop_limit_drops", hopLimitDrops);
            m.put("in_flight", inFlight);
            return m;
        }
    }
}
