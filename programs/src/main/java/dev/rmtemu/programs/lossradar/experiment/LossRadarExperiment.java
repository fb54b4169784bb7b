package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.programs.lossradar.control.AclCorruptionAnalyzer;
import dev.rmtemu.programs.lossradar.control.IbfDecoder;
import dev.rmtemu.programs.lossradar.control.LossRadarCollector;
import dev.rmtemu.programs.lossradar.control.LossRadarFatTree;
import dev.rmtemu.programs.lossradar.control.LossRadarLine;
import dev.rmtemu.programs.lossradar.control.LostPacket;
import dev.rmtemu.programs.lossradar.control.RecordBuffer;
import dev.rmtemu.programs.lossradar.control.RootCause;
import dev.rmtemu.programs.lossradar.control.RootCauseAnalyzer;
import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.programs.lossradar.program.Signature;

import dev.rmtemu.traces.Addresses;
import java.util.SortedSet;
import java.util.TreeSet;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.ExperimentJson;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.impair.BernoulliLoss;
import dev.rmtemu.traces.impair.Blackhole;
import dev.rmtemu.traces.impair.ImpairmentChain;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reproduces LossRadar's evaluation (CoNEXT 2016) at a size that runs in minutes:
 * (a) decode success vs cells per loss for k = 3; (c) root-cause precision and recall
 * per type with incast congestion, 1 % random drops and a blackholed destination, with
 * a parameter sweep; (d) memory per switch, full deployment and black-box; (l) the
 * UM/DM stage programs on tofino1 in a two-switch line with a lossy link.
 */
public final class LossRadarExperiment implements Experiment {
    static final String NAME = "lossradar";

    /** Paper: k = 3 and 1.3× cells decode ≥ 99 % when n_loss > 1000 (after Eppstein et al.). */
    static final String PAPER_A = "k=3, 1.3x cells: >= 99% decoded when n_loss > 1000";
    /** Background packets are this size, so a rate and a length in ms give the packet count. */
    static final int BG_PACKET_BYTES = 850;
    static final int FAT_TREE_K = 4;
    static final double FAT_TREE_FABRIC_GBPS = 10;
    static final double FAT_TREE_HOST_GBPS = 100;
    /** (b), (c): the monitored port and link run at 10 Gb/s. */
    static final double LINK_GBPS = 10;
    /** Flows of the background traffic in (b), (f), (c) and (l). */
    static final int B_FLOWS = 1000;
    static final int F_FLOWS = 2000;
    static final int C_FLOWS = 300;
    static final int L_FLOWS = 200;
    /** Incast senders in (b) and (f). */
    static final int B_SENDERS = 16;
    static final int F_SENDERS = 12;
    /** (l): 96-cell digests, batches of 2^16 ns = 65.5 µs, 10 µs timeout, so a short trace spans many batches. */
    static final int L_CELLS = 96;
    static final int L_BATCH_SHIFT = 16;
    static final long L_TIMEOUT_NS = 10_000;
    static final double L_LOAD = 0.5;
    static final String PAPER_C = "precision ~100% blackholes, >= 97.6% random drops";

    /**
     * The paper's decode figure (share of digests decoded against cells per loss, one line per loss count, one panel
     * per signature source), its digest-size sweep (losses and decoded losses against cells) and its memory against
     * loss rate (digest bandwidth, one line per batch length).
     */
    @Override
    public List<PlotSpec> plots() {
        return List.of(
                PlotSpec.of("decode", "digests fully decoded against cells per loss", "ratio", "cells / losses",
                        "digests fully decoded (share)", "decoded_fraction").series("losses").panel("signatures"),
                PlotSpec.of("digest_size", "losses decoded against digest cells (one congested link)", "cells",
                        "digest cells", "packets", "lost", "decoded").logX(),
                PlotSpec.of("fat_tree_digest_size", "losses decoded against digest cells (k=4 fat tree)", "cells",
                        "digest cells", "packets", "lost", "decoded").logX(),
                PlotSpec.of("loss_rate_memory", "digest bandwidth against loss rate", "loss_rate", "loss rate",
                        "digest bandwidth (Mb/s)", "digest_mbps").logX().series("batch_ms"));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "LossRadar: IBF decode vs cells/losses, root-cause precision/recall, memory per switch, UM/DM on a lossy line";
    }

    @Override
    public List<String> options() {
        return List.of(
                "part=abcdflmr               parts: a decode, b digest size (one link), c root causes, d memory,"
                        + " f digest size on a k=4 fat tree, l stage programs on a line, m memory vs loss rate and batch length,"
                        + " r ACL corruption on a ClassBench-like ACL",
                "r_rules=2000 r_trials=100   (r) ACL rules (up to 200000; the paper's scale: 50000..200000), trials"
                        + " (one random bit flip each)",
                "m_gbps=10 m_packet_bytes=175 m_loss=0.0001,0.001,0.01 m_batch_ms=1,10,20 m_trials=100 m_decode=0.99"
                        + "   (m) traffic, loss rates, batch lengths, trials, share of trials to decode fully (signatures from a_trace)",
                "f_ms=20 f_gbps=20 f_loss=0.0003 f_bursts=2 f_burst_packets=1800 f_cells=12,24,96,384"
                        + "   (f) length, background load, fabric drop rate, incast, digest cells",
                "seed=1 hashes=3 target=tofino1",
                "a_losses=100,1000,10000 a_ratios=1.1,...,2.0 a_trials=100   (a) losses per digest, cells/losses, trials",
                "a_trace=gen:isp?packets=100000&seed=1   (a) the trace whose packets' signatures (5-tuple + IP ID) fill the 'packets' rows",
                "b_ms=200 b_gbps=5 b_loss=0.0005 b_bursts=4 b_burst_packets=250 b_queue_cells=2400 b_cells=24,...,768"
                        + "   (b) one congested, lossy link: digest cells",
                "c_ms=300 c_background_gbps=0.5 c_random=0.01 c_queue_cells=200 c_cells=3072   (c) trace length, load, drop rate, queue, digest",
                "c_senders=32 c_bursts=6 c_burst_packets=1200   (c) incast",
                "d_cells=96,768,3072 d_ports=4,32 d_upstream=16   (d) digest sizes, ports per switch, upstream meters per DM (black box)",
                "l_packets=20000 l_loss=0.005   (l) trace length and link loss");
    }

    /** Signatures of (a): uniformly random words, or the stage program's signatures of real packets. */
    public static final String SIG_RANDOM = "random";
    public static final String SIG_PACKETS = "packets";
    /** Paper §7.1: 10 Gb/s of 175-byte packets, 10 ms batches: digests of 2.9 Mb/s at 0.1 % loss, 25.6 Mb/s at 1 %. */
    /** Paper §7.5: ClassBench ACLs of 50K-200K rules, 100 random bit flips. */
    static final String PAPER_R = "50K-200K rules: corrupted rule always a candidate, 2-2.5 candidate rules";
    /** (r): the largest ACL the option takes, the paper's largest rule set (§7.5: 50K, 100K, 150K, 200K). */
    static final int R_RULES_MAX = 200_000;
    static final String PAPER_M = "10G, 175 B packets, T = 10 ms: 2.9 Mbps at 0.1% loss, 25.6 Mbps at 1%";

    /**
     * (m) the smallest tofino1 digest (k times a power of two cells) that fully decodes
     * at least m_decode of the trials, for a loss rate and batch length.
     *
     * @param packets   packets per batch at m_gbps of m_packet_bytes packets
     * @param losses    lost packets per batch (loss rate x packets)
     * @param mbps      the digest's report rate: one digest per batch
     */
    public record LossRateRow(double lossRate, double batchMs, long packets, int losses, int cells, int digestBytes, int trials,
                              int complete, double mbps) {
    }

    /** (a) one point. @param signatures {@link #SIG_RANDOM} or {@link #SIG_PACKETS} */
    public record DecodeRow(String signatures, int losses, double ratio, int cells, int trials, int complete, double decodedFraction) {
    }

    /** (b) one digest size. */
    public record SizeRow(int cells, int digestBytes, long packets, long lost, long decoded, int batches, int batchesComplete) {
    }

    /** (c) one type's precision and recall under one parameter setting. */
    public record CauseRow(String setting, RootCause cause, long truth, long reported, long correct) {
        double precision() {
            return reported == 0 ? Double.NaN : correct / (double) reported;
        }

        double recall() {
            return truth == 0 ? Double.NaN : correct / (double) truth;
        }
    }

    /** (c) the rows, and the ACL corruption the blackhole stands for with the candidates the analyzer found. */
    public record CauseResult(List<CauseRow> rows, String aclTruth, List<String> aclCandidates) {
    }

    /** (c): the blackholed destination is the one a single bit away from the host the ACL means to block. */
    static final int ACL_FLIPPED_DST_BIT = 3;

    /** (d) one row. */
    public record MemoryRow(int cells, int ports, int upstream, long digestBytes, long fullBytes, long blackBoxBytes) {
    }

    /** (l) the line run. */
    public record LineRow(int ingressPipes, long packets, long lost, long counted, long decoded, int batches, int batchesComplete,
                          boolean equalsReference, int sramBlocks, int sramAvailable, int stages) {
    }

    @Override
    public Output produce(Map<String, String> given, PrintWriter err) {
        LossRadarOptions o = LossRadarOptions.parse(given);
        String part = o.part();
        long seed = o.seed();
        int k = o.hashes();
        List<DecodeRow> a = part.contains("a") ? decode(o, k, seed) : List.of();
        List<SizeRow> bRows = part.contains("b") ? sizes(o, k, seed) : List.of();
        List<SizeRow> fRows = part.contains("f") ? fatTree(o, k, seed) : List.of();
        CauseResult cr = part.contains("c") ? causes(o, k, seed) : new CauseResult(List.of(), "", List.of());
        List<CauseRow> c = cr.rows();
        List<MemoryRow> d = part.contains("d") ? memory(o, k) : List.of();
        List<LineRow> l = part.contains("l") ? lines(o, k, seed) : List.of();
        List<LossRateRow> m = part.contains("m") ? lossRates(o, k, seed) : List.of();
        AclCorruptionEvaluation.Result acl = part.contains("r") ? aclCorruption(o, seed) : null;
        StringWriter json = new StringWriter();
        StringWriter tables = new StringWriter();
        printJson(new PrintWriter(json), o, a, bRows, fRows, cr, d, l, m, acl);
        printTables(new PrintWriter(tables), a, bRows, fRows, cr, d, l, m, acl);
        return new Output(json.toString(), tables.toString());
    }

    // ------------------------------------------------------------------ (a)

    /**
     * (a) for both kinds of signature. "random": n random 4-word signatures. "packets":
     * the losses of a burst, n consecutive packets of {@code a_trace} from a random
     * offset, with the signature the stage program builds from their 5-tuple and IP ID
     * ({@link Signature#of}): same flows, consecutive IP IDs, and any repeats the trace has.
     * The digest is {@link IbfDigest}, whose cells equal the stage program's registers.
     */
    static List<DecodeRow> decode(LossRadarOptions o, int k, long seed) {
        List<DecodeRow> rows = new ArrayList<>();
        int trials = o.aTrials();
        int[] losses = o.aLosses();
        int most = 0;
        for (int n : losses) {
            most = Math.max(most, n);
        }
        String spec = o.aTrace();
        RecordBuffer trace;
        try (PacketSource s = TraceSpec.open(spec)) {
            trace = RecordBuffer.load(s, Long.MAX_VALUE);
        }
        if (trace.size() < most) {
            throw new UserError("lossradar experiment: a_trace " + spec + " has " + trace.size() + " packets, fewer than a_losses " + most);
        }
        LossRadarConfig sigConfig = LossRadarConfig.defaults();
        for (String kind : List.of(SIG_RANDOM, SIG_PACKETS)) {
            for (int n : losses) {
                for (double ratio : o.aRatios()) {
                    rows.add(decodeRow(kind, n, ratio, k, trials, seed, trace, sigConfig, Math.max(k, (int) Math.round(ratio * n / k) * k)));
                }
            }
        }
        return rows;
    }

    private static DecodeRow decodeRow(String kind, int n, double ratio, int k, int trials, long seed, RecordBuffer trace,
                                       LossRadarConfig sigConfig, int cells) {
        IbfDigest d = new IbfDigest(k, cells / k, LossRadarConfig.BASE_WORDS);
        int complete = 0;
        long decoded = 0;
        int[] sig = new int[LossRadarConfig.BASE_WORDS];
        boolean packets = kind.equals(SIG_PACKETS);
        for (int t = 0; t < trials; t++) {
            d.clear();
            SplitMix64 rnd = new SplitMix64(SplitMix64.derive(seed, ((long) n << 32) ^ t ^ Double.doubleToLongBits(ratio)));
            int from = packets ? (int) Long.remainderUnsigned(rnd.nextLong(), trace.size() - n + 1L) : 0;
            for (int i = 0; i < n; i++) {
                if (packets) {
                    PacketRecord r = trace.get(from + i);
                    Signature.of(r, r.ttl(), 0, sigConfig, sig);
                } else {
                    for (int w = 0; w < sig.length; w++) {
                        sig[w] = (int) rnd.nextLong();
                    }
                }
                d.insert(sig);
            }
            IbfDecoder.Result r = IbfDecoder.peel(d);
            complete += r.complete() ? 1 : 0;
            decoded += r.decoded();
        }
        return new DecodeRow(kind, n, ratio, cells, trials, complete, decoded / ((double) n * trials));
    }

    // ------------------------------------------------------------------ (r)

    static AclCorruptionEvaluation.Result aclCorruption(LossRadarOptions o, long seed) {
        int rules = o.rRules();
        int trials = o.rTrials();
        if (rules < 1 || trials < 1) {
            throw new UserError("lossradar experiment: r_rules and r_trials must be at least 1");
        }
        if (rules > R_RULES_MAX) {
            throw new UserError("lossradar experiment: r_rules=" + rules + " is more than " + R_RULES_MAX
                    + ", the paper's largest ACL");
        }
        return AclCorruptionEvaluation.run(rules, trials, seed);
    }

    // ------------------------------------------------------------------ (m)

    /**
     * (m) memory vs loss rate and losses per batch, and digest size vs batch length: a
     * batch of T at m_gbps holds P packets, n = loss rate x P of them lost (a burst of n
     * consecutive packets of a_trace, as in (a)); the digest doubles from k cells until
     * m_decode of the trials decode fully. The report rate is one digest per batch.
     */
    static List<LossRateRow> lossRates(LossRadarOptions o, int k, long seed) {
        double gbps = o.mGbps();
        int packetBytes = o.mPacketBytes();
        int trials = o.mTrials();
        double target = o.mDecode();
        if (gbps <= 0 || packetBytes <= 0 || trials <= 0 || !(target > 0 && target <= 1)) {
            throw new UserError("lossradar experiment: m_gbps, m_packet_bytes, m_trials must be positive and m_decode in (0, 1]");
        }
        String spec = o.aTrace();
        RecordBuffer trace;
        try (PacketSource s = TraceSpec.open(spec)) {
            trace = RecordBuffer.load(s, Long.MAX_VALUE);
        }
        LossRadarConfig sigConfig = LossRadarConfig.defaults();
        List<LossRateRow> rows = new ArrayList<>();
        for (double rate : o.mLoss()) {
            for (double ms : o.mBatchMs()) {
                long packets = Math.round(gbps * 1e9 / 8 / packetBytes * ms / 1000);
                int n = (int) Math.round(rate * packets);
                if (n < 1) {
                    rows.add(new LossRateRow(rate, ms, packets, 0, 0, 0, trials, trials, 0));
                    continue;
                }
                if (n > trace.size()) {
                    throw new UserError("lossradar experiment: a_trace " + spec + " has " + trace.size() + " packets, fewer than the "
                            + n + " losses of loss rate " + rate + " in " + ms + " ms");
                }
                for (int perHash = 1; ; perHash *= 2) {
                    DecodeRow r = decodeRow(SIG_PACKETS, n, (double) k * perHash / n, k, trials, seed, trace, sigConfig, k * perHash);
                    if (r.complete() >= target * trials) {
                        int bytes = r.cells() * (sigConfig.words() + 1) * Integer.BYTES;
                        rows.add(new LossRateRow(rate, ms, packets, n, r.cells(), bytes, trials, r.complete(), bytes * 8 / (ms / 1000) / 1e6));
                        break;
                    }
                }
            }
        }
        return rows;
    }

    // ------------------------------------------------------------------ (b)

    /**
     * (b) one link with incast congestion in front of it (a shallow 10 Gb/s port) and
     * random loss on it, the stage programs run once per digest size: the fraction of
     * lost packets decoded and of (link, batch) digests fully decoded.
     */
    static List<SizeRow> sizes(LossRadarOptions o, int k, long seed) {
        double gbps = o.bGbps();
        long durationNs = o.bMs() * 1_000_000L;
        double linkGbps = LINK_GBPS;
        long bgPackets = (long) (gbps * 1e9 / 8 / BG_PACKET_BYTES * durationNs / 1e9);
        int bursts = o.bBursts();
        String bg = "gen:tcp?packets=" + bgPackets + "&sizes=fixed:" + BG_PACKET_BYTES + "&flows=" + B_FLOWS + "&gbps=" + linkGbps + "&load=" + gbps / linkGbps + "&start=0&seed=" + seed;
        String incast = "gen:incast?packets=" + ((long) bursts * o.bBurstPackets()) + "&senders=" + B_SENDERS + "&bursts=" + bursts
                + "&interval=" + (durationNs / bursts) + "&gbps=" + linkGbps + "&start=" + (durationNs / bursts / 2) + "&seed=" + (seed + 1);
        RecordBuffer trace = merge(bg, incast);
        List<SizeRow> rows = new ArrayList<>();
        for (int cells : o.bCells()) {
            LossRadarConfig cfg = LossRadarConfig.defaults().withHashes(k, LossRadarConfig.powerOfTwoCells(k, cells));
            Path dir = tempDir();
            LossRadarLine.Result r;
            try {
                r = new LossRadarLine(cfg, o.target(), true).egress(linkGbps, o.bQueueCells())
                        .run(trace, new BernoulliLoss(o.bLoss(), SplitMix64.derive(seed, 11)), dir);
            } finally {
                deleteTree(dir);
            }
            int complete = 0;
            for (LossRadarCollector.BatchReport b : r.reports()) {
                complete += b.result().complete() ? 1 : 0;
            }
            rows.add(new SizeRow(cfg.cells(), cfg.digestBytes(), trace.size(), r.groundTruth().size(),
                    LossRadarCollector.lost(r.reports()).size(), r.reports().size(), complete));
        }
        return rows;
    }

    /**
     * (b) on a k = 4 fat tree: every switch runs UM and DM with its own ECMP routing
     * table; 10 Gb/s fabric links with random loss, 100 Gb/s host links; background
     * traffic between all hosts plus incast bursts to one host, which congest the
     * fabric queues towards it.
     */
    static List<SizeRow> fatTree(LossRadarOptions o, int k, long seed) {
        double gbps = o.fGbps();
        long durationNs = o.fMs() * 1_000_000L;
        double hostGbps = FAT_TREE_HOST_GBPS;
        long bgPackets = (long) (gbps * 1e9 / 8 / BG_PACKET_BYTES * durationNs / 1e9);
        int bursts = o.fBursts();
        String bg = "gen:tcp?packets=" + bgPackets + "&sizes=fixed:" + BG_PACKET_BYTES + "&flows=" + F_FLOWS + "&gbps=" + hostGbps
                + "&load=" + gbps / hostGbps + "&start=0&seed=" + seed;
        String incast = "gen:incast?packets=" + ((long) bursts * o.fBurstPackets()) + "&senders=" + F_SENDERS + "&bursts=" + bursts
                + "&interval=" + (durationNs / bursts) + "&gbps=" + FAT_TREE_FABRIC_GBPS + "&start=" + (durationNs / bursts / 2)
                + "&seed=" + (seed + 1);
        RecordBuffer trace = merge(bg, incast);
        List<SizeRow> rows = new ArrayList<>();
        LossRadarFatTree tree = new LossRadarFatTree(FAT_TREE_K, FAT_TREE_FABRIC_GBPS, hostGbps, o.fLoss());
        for (int cells : o.fCells()) {
            LossRadarConfig cfg = LossRadarConfig.defaults().withHashes(k, LossRadarConfig.powerOfTwoCells(k, cells));
            Path dir = tempDir();
            LossRadarFatTree.Result r;
            try {
                r = tree.run(cfg, trace, seed, dir);
            } finally {
                deleteTree(dir);
            }
            rows.add(new SizeRow(cfg.cells(), cfg.digestBytes(), r.injected(), r.lost(), r.decoded(), r.batches(), r.batchesComplete()));
        }
        return rows;
    }

    // ------------------------------------------------------------------ (c)

    /** The incast, random-drop and blackhole scenario of (c); returns the decoded losses with their true causes. */
    static CauseResult causes(LossRadarOptions o, int k, long seed) {
        int cells = o.cCells();
        LossRadarConfig cfg = new LossRadarConfig(k, LossRadarConfig.powerOfTwoCells(k, cells), LossRadarConfig.DEFAULT_PORTS,
                LossRadarConfig.DEFAULT_BATCH_SHIFT, LossRadarConfig.DEFAULT_TIMEOUT_NS, false, true, true, 0, LossRadarConfig.DEFAULT_PORT);
        double bgGbps = o.cBackgroundGbps();
        long durationNs = o.cMs() * 1_000_000L;
        double linkGbps = LINK_GBPS;
        double load = bgGbps / linkGbps;
        long bgPackets = (long) (bgGbps * 1e9 / 8 / BG_PACKET_BYTES * durationNs / 1e9);
        int bursts = o.cBursts();
        String bg = "gen:tcp?packets=" + bgPackets + "&sizes=fixed:" + BG_PACKET_BYTES + "&flows=" + C_FLOWS + "&gbps=" + linkGbps + "&load=" + load + "&start=0&seed=" + seed;
        String incast = "gen:incast?packets=" + ((long) bursts * o.cBurstPackets()) + "&senders=" + o.cSenders()
                + "&bursts=" + bursts + "&interval=" + (durationNs / bursts) + "&gbps=" + linkGbps + "&start=" + (durationNs / bursts / 3)
                + "&seed=" + (seed + 1);
        RecordBuffer trace = merge(bg, incast);
        int victim = trace.get(0).dstIpv4();
        String victimCidr = Addresses.ipv4(victim) + "/32";
        ImpairmentChain link = new ImpairmentChain(
                Blackhole.of(victimCidr, Blackhole.ANY, Blackhole.ANY, Long.MIN_VALUE, Long.MAX_VALUE),
                new BernoulliLoss(o.cRandom(), SplitMix64.derive(seed, 7)));
        Path dir = tempDir();
        LossRadarLine.Result r;
        try {
            r = new LossRadarLine(cfg, o.target(), true).egress(linkGbps, o.cQueueCells()).run(trace, link, dir);
        } finally {
            deleteTree(dir);
        }
        Map<LostPacket, RootCause> truth = new TreeMap<>();
        for (int i = 0; i < r.groundTruth().size(); i++) {
            int cause = r.truthCauses().get(i);
            truth.put(r.groundTruth().get(i), cause == LossRadarLine.CAUSE_QUEUE ? RootCause.CONGESTION
                    : cause == 0 ? RootCause.BLACKHOLE : RootCause.RANDOM);
        }
        List<RootCauseAnalyzer.Loss> losses = new ArrayList<>();
        List<LostPacket> packets = new ArrayList<>();
        for (LossRadarCollector.BatchReport b : r.reports()) {
            long batchStart = b.batch() << cfg.batchShift();
            for (LostPacket p : b.result().lost()) {
                losses.add(RootCauseAnalyzer.Loss.of(p, b.batch(), RootCauseAnalyzer.unwrapNs(p.words()[LossRadarConfig.BASE_WORDS], batchStart)));
                packets.add(p);
            }
        }
        List<CauseRow> rows = new ArrayList<>();
        RootCauseAnalyzer.Params def = RootCauseAnalyzer.Params.defaults();
        Map<String, RootCauseAnalyzer.Params> settings = new LinkedHashMap<>();
        settings.put("paper defaults", def);
        for (long g : new long[] {10_000, 40_000}) {
            settings.put("t_gap=" + g / 1000 + "us", new RootCauseAnalyzer.Params(g, def.nBurst(), def.nBb(), def.nNb(), def.pSyn(), def.pRand(), def.intervalNs()));
        }
        for (int nb : new int[] {3, 10}) {
            settings.put("n_burst=" + nb, new RootCauseAnalyzer.Params(def.tGapNs(), nb, def.nBb(), def.nNb(), def.pSyn(), def.pRand(), def.intervalNs()));
        }
        for (int bb : new int[] {10, 50}) {
            settings.put("n_bb=" + bb, new RootCauseAnalyzer.Params(def.tGapNs(), def.nBurst(), bb, def.nNb(), def.pSyn(), def.pRand(), def.intervalNs()));
        }
        for (int nn : new int[] {3, 8}) {
            settings.put("n_nb=" + nn, new RootCauseAnalyzer.Params(def.tGapNs(), def.nBurst(), def.nBb(), nn, def.pSyn(), def.pRand(), def.intervalNs()));
        }
        for (double pr : new double[] {0.3, 0.7}) {
            settings.put("p_rand=" + pr, new RootCauseAnalyzer.Params(def.tGapNs(), def.nBurst(), def.nBb(), def.nNb(), def.pSyn(), pr, def.intervalNs()));
        }
        for (Map.Entry<String, RootCauseAnalyzer.Params> s : settings.entrySet()) {
            RootCause[] got = new RootCauseAnalyzer(s.getValue()).classify(losses);
            for (RootCause rc : new RootCause[] {RootCause.CONGESTION, RootCause.BLACKHOLE, RootCause.RANDOM}) {
                long t = 0;
                long rep = 0;
                long ok = 0;
                for (RootCause v : truth.values()) {
                    t += v == rc ? 1 : 0;
                }
                for (int i = 0; i < got.length; i++) {
                    if (got[i] == rc) {
                        rep++;
                        ok += truth.get(packets.get(i)) == rc ? 1 : 0;
                    }
                }
                rows.add(new CauseRow(s.getKey(), rc, t, rep, ok));
            }
            long unclassified = 0;
            for (RootCause g : got) {
                unclassified += g == RootCause.UNCLASSIFIED ? 1 : 0;
            }
            rows.add(new CauseRow(s.getKey(), RootCause.UNCLASSIFIED, 0, unclassified, 0));
        }
        // decoding coverage of the scenario, as the first row's context
        rows.add(0, new CauseRow("decoded/lost", RootCause.UNCLASSIFIED, truth.size(), packets.size(), packets.size()));
        // the blackhole as a corrupted ACL: the ACL should deny the host one bit away from the victim
        int intended = victim ^ (1 << ACL_FLIPPED_DST_BIT);
        List<AclCorruptionAnalyzer.Rule> acl = List.of(AclCorruptionAnalyzer.Rule.of(intended, 32, 0, 10, true),
                AclCorruptionAnalyzer.Rule.of(0, 0, 0, 1, false));
        RootCause[] byDefault = new RootCauseAnalyzer(def).classify(losses);
        TreeSet<Long> lostKeys = new TreeSet<>();
        for (int i = 0; i < byDefault.length; i++) {
            if (byDefault[i] == RootCause.BLACKHOLE) {
                lostKeys.add(AclCorruptionAnalyzer.key(packets.get(i).dst(), packets.get(i).proto()));
            }
        }
        TreeSet<Long> deliveredKeys = new TreeSet<>();
        for (int i = 0; i < trace.size(); i++) {
            PacketRecord p = trace.get(i);
            if (p.dstIpv4() != victim && p.dstIpv4() != intended) {
                deliveredKeys.add(AclCorruptionAnalyzer.key(p.dstIpv4(), p.protocol()));
            }
        }
        List<String> candidates = new ArrayList<>();
        for (AclCorruptionAnalyzer.Candidate cand : AclCorruptionAnalyzer.explain(acl, toArray(lostKeys), toArray(deliveredKeys))) {
            candidates.add(cand.describe());
        }
        String truthFlip = AclCorruptionAnalyzer.Candidate.value(0, ACL_FLIPPED_DST_BIT + Byte.SIZE).describe();
        return new CauseResult(rows, truthFlip + " (deny " + Addresses.ipv4(intended) + " became deny "
                + victimCidr + ")", candidates);
    }

    private static long[] toArray(SortedSet<Long> set) {
        long[] a = new long[set.size()];
        int i = 0;
        for (long v : set) {
            a[i++] = v;
        }
        return a;
    }

    /** Two generated traces merged by timestamp. */
    static RecordBuffer merge(String specA, String specB) {
        RecordBuffer x;
        RecordBuffer y;
        try (PacketSource a = TraceSpec.open(specA); PacketSource b = TraceSpec.open(specB)) {
            x = RecordBuffer.load(a, Long.MAX_VALUE);
            y = RecordBuffer.load(b, Long.MAX_VALUE);
        }
        RecordBuffer m = new RecordBuffer();
        int i = 0;
        int j = 0;
        PacketRecord tmp = PacketRecord.allocate();
        while (i < x.size() || j < y.size()) {
            boolean takeX = j >= y.size() || (i < x.size() && x.get(i).timestampNs() <= y.get(j).timestampNs());
            tmp.copyFrom(takeX ? x.get(i++) : y.get(j++));
            m.add(tmp, 0, 0);
        }
        return m;
    }

    // ------------------------------------------------------------------ (d)

    static List<MemoryRow> memory(LossRadarOptions o, int k) {
        List<MemoryRow> rows = new ArrayList<>();
        int upstream = o.dUpstream();
        for (int cells : o.dCells()) {
            int n = LossRadarConfig.powerOfTwoCells(k, cells);
            LossRadarConfig c = LossRadarConfig.defaults().withHashes(k, n);
            long digest = c.digestBytes();
            for (int ports : o.dPorts()) {
                // full deployment: a UM per egress port and a DM per ingress port, two batches each
                long full = digest * LossRadarConfig.BATCH_SLOTS * 2L * ports;
                // black box: each DM port keeps one digest per upstream meter; UMs as before
                long blackBox = digest * LossRadarConfig.BATCH_SLOTS * ((long) ports + (long) ports * upstream);
                rows.add(new MemoryRow(n, ports, upstream, digest, full, blackBox));
            }
        }
        return rows;
    }

    // ------------------------------------------------------------------ (l)

    /**
     * The line with the hosts on port 0 (one ingress pipe), and with one host port in every pipe
     * of the target: the upstream meter's digest is then spread over every ingress pipe.
     */
    static List<LineRow> lines(LossRadarOptions o, int k, long seed) {
        List<LineRow> rows = new ArrayList<>();
        rows.add(line(o, k, seed, new int[] {LossRadarLine.HOST_PORT}));
        TargetProfile t = TargetProfiles.builtIn(o.target());
        if (t.pipes() > 1 && t.portsPerPipe() != TargetProfile.UNLIMITED) {
            int[] ports = new int[t.pipes()];
            for (int p = 0; p < ports.length; p++) {
                ports[p] = p * t.portsPerPipe();
            }
            rows.add(line(o, k, seed, ports));
        }
        return rows;
    }

    static LineRow line(LossRadarOptions o, int k, long seed, int[] hostPorts) {
        LossRadarConfig c = new LossRadarConfig(k, L_CELLS / k * k, LossRadarConfig.DEFAULT_PORTS, L_BATCH_SHIFT, L_TIMEOUT_NS,
                false, false, false, 0,
                LossRadarConfig.DEFAULT_PORT);
        int packets = o.lPackets();
        RecordBuffer trace;
        try (PacketSource s = TraceSpec.open("gen:tcp?packets=" + packets + "&flows=" + L_FLOWS + "&load=" + L_LOAD + "&start=0&seed=" + seed)) {
            trace = RecordBuffer.load(s, packets);
        }
        Path dir = tempDir();
        LossRadarLine.Result r;
        try {
            r = new LossRadarLine(c, o.target(), true).hostPorts(hostPorts)
                    .run(trace, new BernoulliLoss(o.lLoss(), seed), dir);
        } finally {
            deleteTree(dir);
        }
        Map<String, IbfDigest> sw = new TreeMap<>();
        Map<String, IbfDigest> ref = new TreeMap<>();
        for (MeterDigest d : r.switchDigests()) {
            sw.put(d.switchId() + "/" + d.role() + "/" + d.port() + "/" + d.batch(), d.digest());
        }
        for (MeterDigest d : r.referenceDigests()) {
            ref.put(d.switchId() + "/" + d.role() + "/" + d.port() + "/" + d.batch(), d.digest());
        }
        int complete = 0;
        for (LossRadarCollector.BatchReport b : r.reports()) {
            complete += b.result().complete() ? 1 : 0;
        }
        ResourceReport rr = ResourceChecker.check(new LossRadarProgram().build(c, LossRadarProgram.DEFAULT_ACL_ENTRIES, null),
                TargetProfiles.builtIn(o.target()));
        int sram = 0;
        int stages = 0;
        for (var su : rr.stages()) {
            sram += (int) su.sramBlocks();
            stages += su.statefulAlus() > 0 || su.hashBits() > 0 ? 1 : 0;
        }
        int sramAvail = rr.target().sram().blocks() * rr.target().stagesPerGress();
        return new LineRow(hostPorts.length, trace.size(), r.groundTruth().size(), LossRadarCollector.counted(r.reports()),
                LossRadarCollector.lost(r.reports()).size(), r.reports().size(), complete, sw.equals(ref), sram, sramAvail, stages);
    }

    // ------------------------------------------------------------------ output

    private static void printTables(PrintWriter out, List<DecodeRow> a, List<SizeRow> bRows, List<SizeRow> fRows, CauseResult cr,
                                    List<MemoryRow> d, List<LineRow> l, List<LossRateRow> m, AclCorruptionEvaluation.Result acl) {
        List<CauseRow> c = cr.rows();
        if (acl != null) {
            out.printf(Locale.ROOT, "(r) ACL corruption, ClassBench-like ACL of %d rules, %d one-bit flips that blackhole traffic   paper: %s%n",
                    acl.rules(), acl.trials(), PAPER_R);
            out.printf(Locale.ROOT, "  corrupted rule among the candidates (recall): %.1f%%   exact flip: %d/%d   candidate rules per trial: %.2f"
                            + "   precision (1 / candidate rules when found): %.1f%%   candidate flips per trial: %.2f%n%n",
                    100 * acl.recall(), acl.flipFound(), acl.trials(), acl.meanCandidateRules(), 100 * acl.precision(),
                    acl.trials() == 0 ? 0 : (double) acl.candidateFlips() / acl.trials());
        }
        if (!m.isEmpty()) {
            out.println("(m) smallest digest (k x 2^i cells) decoding fully in m_decode of the trials, per loss rate and batch"
                    + " length   paper: " + PAPER_M);
            out.println("  loss rate  batch ms  packets/batch  losses   cells  digest bytes  decoded  digest Mbps");
            for (LossRateRow r : m) {
                out.printf(Locale.ROOT, "  %9.4f%%  %8.1f  %13d  %6d  %6d  %12d  %3d/%-3d  %11.3f%n", 100 * r.lossRate(), r.batchMs(), r.packets(),
                        r.losses(), r.cells(), r.digestBytes(), r.complete(), r.trials(), r.mbps());
            }
            out.println();
        }
        if (!a.isEmpty()) {
            out.println("(a) IBF decode success vs cells/losses (k partitions; random 128-bit signatures, and the signatures of"
                    + " n consecutive packets of a_trace)   paper: " + PAPER_A);
            out.println("  signatures  n_loss  cells/loss   cells  trials  fully decoded  packets decoded");
            for (DecodeRow r : a) {
                out.printf(Locale.ROOT, "  %-10s  %6d  %10.2f  %6d  %6d  %12.1f%%  %14.2f%%%n", r.signatures(), r.losses(), r.ratio(),
                        r.cells(), r.trials(),
                        100.0 * r.complete() / r.trials(), 100 * r.decodedFraction());
            }
            out.println();
        }
        if (!bRows.isEmpty()) {
            SizeRow f = bRows.get(0);
            out.printf(Locale.ROOT, "(b) digest size: incast into a shallow 10G port + random loss on the link; %d packets, %d lost (%.3f%%)"
                    + "   paper (k=4 fat tree, 0.1%% loss): 7.6 KB digests capture > 99.99%% of lost packets%n",
                    f.packets(), f.lost(), 100.0 * f.lost() / f.packets());
            out.println("  cells  digest KB  lost decoded  batches fully decoded");
            for (SizeRow r : bRows) {
                out.printf(Locale.ROOT, "  %5d  %9.2f  %11.2f%%  %13.1f%% (%d/%d)%n", r.cells(), r.digestBytes() / 1024.0,
                        r.lost() == 0 ? 100.0 : 100.0 * r.decoded() / r.lost(), r.batches() == 0 ? 100.0 : 100.0 * r.batchesComplete() / r.batches(),
                        r.batchesComplete(), r.batches());
            }
            out.println();
        }
        if (!fRows.isEmpty()) {
            SizeRow f = fRows.get(0);
            out.printf(Locale.ROOT, "(b) on a k=4 fat tree (every switch UM + DM, 10G fabric with random loss, incast): %d packets,"
                    + " %d lost on switch-to-switch links (%.3f%%)   paper: 7.6 KB digests capture > 99.99%% at 0.1%% loss%n",
                    f.packets(), f.lost(), 100.0 * f.lost() / f.packets());
            out.println("  cells  digest KB  lost decoded  link-batches fully decoded");
            for (SizeRow r : fRows) {
                out.printf(Locale.ROOT, "  %5d  %9.2f  %11.2f%%  %13.1f%% (%d/%d)%n", r.cells(), r.digestBytes() / 1024.0,
                        r.lost() == 0 ? 100.0 : 100.0 * r.decoded() / r.lost(), r.batches() == 0 ? 100.0 : 100.0 * r.batchesComplete() / r.batches(),
                        r.batchesComplete(), r.batches());
            }
            out.println();
        }
        if (!c.isEmpty()) {
            CauseRow cov = c.get(0);
            out.println("(c) root causes: incast into a 10G port + 1% random drops + a blackholed destination; UM/DM on tofino1");
            out.printf(Locale.ROOT, "  losses: %d, decoded: %d   paper: %s%n", cov.truth(), cov.reported(), PAPER_C);
            out.println("  setting          cause          truth  reported  correct  precision  recall");
            for (CauseRow r : c.subList(1, c.size())) {
                if (r.cause() == RootCause.UNCLASSIFIED) {
                    out.printf(Locale.ROOT, "  %-15s  %-12s  %6s  %8d%n", r.setting(), "unclassified", "-", r.reported());
                    continue;
                }
                out.printf(Locale.ROOT, "  %-15s  %-12s  %6d  %8d  %7d  %8.1f%%  %5.1f%%%n", r.setting(), r.cause().name().toLowerCase(Locale.ROOT),
                        r.truth(), r.reported(), r.correct(), 100 * r.precision(), 100 * r.recall());
            }
            out.println("  ACL corruption behind the blackhole: " + cr.aclTruth());
            out.println("  candidate one-bit flips explaining the blackhole losses: " + cr.aclCandidates());
            out.println();
        }
        if (!d.isEmpty()) {
            out.println("(d) memory per switch (two batches per meter; cell = 32-bit count + 4 x 32-bit xorSum)");
            out.println("  cells  digest B  ports  full deployment  black box (upstream meters)");
            for (MemoryRow r : d) {
                out.printf(Locale.ROOT, "  %5d  %8d  %5d  %12.1f KB  %10.1f KB (%d)%n", r.cells(), r.digestBytes(), r.ports(),
                        r.fullBytes() / 1024.0, r.blackBoxBytes() / 1024.0, r.upstream());
            }
            out.println();
        }
        if (!l.isEmpty()) {
            out.println("(l) lossradar-um -> lossy link -> lossradar-dm (96 cells, k = 3, T = 65.5 us), journal -> collector;"
                    + " senders on one port, then on one port per pipe");
            for (LineRow r : l) {
                out.printf(Locale.ROOT, "  ingress pipes %d: packets %d, lost %d, counted %d, decoded %d; batches %d, fully decoded %d;"
                                + " digests == plain-Java meters: %s; 'lossradar' (UM+DM) uses %d/%d SRAM blocks in %d stages%n",
                        r.ingressPipes(), r.packets(), r.lost(), r.counted(), r.decoded(), r.batches(), r.batchesComplete(),
                        r.equalsReference(), r.sramBlocks(), r.sramAvailable(), r.stages());
            }
        }
    }

    /** The experiment's JSON document (docs/schema/experiment.schema.json, {@code lossradar}). */
    record JsonDoc(String experiment, Map<String, String> options, List<JsonDecode> decode, List<SizeRow> digestSize,
                   List<SizeRow> fatTreeDigestSize, List<JsonCause> rootCauses, JsonAclCorruption aclCorruption,
                   List<MemoryRow> memory, List<JsonLine> line, List<JsonLossRate> lossRateMemory, JsonAcl aclClassbench,
                   JsonPaper paper) {
    }

    record JsonDecode(String signatures, int losses, BigDecimal ratio, int cells, int trials, int complete,
                      BigDecimal decodedFraction) {
    }

    record JsonCause(String setting, String cause, long truth, long reported, long correct) {
    }

    record JsonAclCorruption(String truth, List<String> candidates) {
    }

    record JsonLine(int ingressPipes, long packets, long lost, long counted, long decoded, int batches, int batchesComplete,
                    boolean equalsReference, int sramBlocks, int stages) {
    }

    record JsonLossRate(BigDecimal lossRate, BigDecimal batchMs, long packets, int losses, int cells, int digestBytes, int trials,
                        int complete, BigDecimal digestMbps) {
    }

    record JsonAcl(int rules, int trials, int ruleFound, int flipFound, long candidateRules, long candidateFlips,
                   BigDecimal recall, BigDecimal precision) {
    }

    /** The paper's statements beside ours, one per part that has one. */
    record JsonPaper(String decode, String rootCauses, String lossRateMemory, String aclClassbench) {
    }

    /** A double as Java prints it (ratios, loss rates and batch lengths are options, kept as given). */
    private static BigDecimal plain(double v) {
        return Double.isFinite(v) ? new BigDecimal(Double.toString(v)) : null;
    }

    private static void printJson(PrintWriter out, LossRadarOptions o, List<DecodeRow> a, List<SizeRow> bRows, List<SizeRow> fRows,
                                  CauseResult cr, List<MemoryRow> d, List<LineRow> l, List<LossRateRow> m,
                                  AclCorruptionEvaluation.Result acl) {
        List<JsonDecode> decode = new ArrayList<>();
        for (DecodeRow r : a) {
            decode.add(new JsonDecode(r.signatures(), r.losses(), plain(r.ratio()), r.cells(), r.trials(), r.complete(),
                    ExperimentJson.decimal(r.decodedFraction(), 6)));
        }
        List<JsonCause> causes = new ArrayList<>();
        for (CauseRow r : cr.rows()) {
            causes.add(new JsonCause(r.setting(), r.cause().name().toLowerCase(Locale.ROOT), r.truth(), r.reported(), r.correct()));
        }
        List<JsonLine> line = new ArrayList<>();
        for (LineRow r : l) {
            line.add(new JsonLine(r.ingressPipes(), r.packets(), r.lost(), r.counted(), r.decoded(), r.batches(), r.batchesComplete(),
                    r.equalsReference(), r.sramBlocks(), r.stages()));
        }
        List<JsonLossRate> lossRate = new ArrayList<>();
        for (LossRateRow r : m) {
            lossRate.add(new JsonLossRate(plain(r.lossRate()), plain(r.batchMs()), r.packets(), r.losses(), r.cells(), r.digestBytes(),
                    r.trials(), r.complete(), ExperimentJson.decimal(r.mbps(), 4)));
        }
        JsonAcl classbench = acl == null ? null : new JsonAcl(acl.rules(), acl.trials(), acl.ruleFound(), acl.flipFound(),
                acl.candidateRules(), acl.candidateFlips(), ExperimentJson.decimal(acl.recall(), 6),
                ExperimentJson.decimal(acl.precision(), 6));
        out.print(Json.write(new JsonDoc("lossradar", o.text(), decode, bRows, fRows, causes,
                new JsonAclCorruption(cr.aclTruth(), cr.aclCandidates()), d, line, lossRate, classbench,
                new JsonPaper(PAPER_A, PAPER_C, PAPER_M, PAPER_R))));
    }

    // ------------------------------------------------------------------ helpers

    static Path tempDir() {
        try {
            return Files.createTempDirectory("rmtemu-lossradar");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // option readers with the shared one-line errors
}
