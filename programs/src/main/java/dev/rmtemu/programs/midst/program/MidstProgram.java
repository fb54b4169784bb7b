package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

import java.util.List;

/** {@code midst}: the MIDST Δ-sketch data plane ({@link MidstPipeline}) as a named program. */
public final class MidstProgram implements ProgramFactory {
    public static final String NAME = "midst";
    /** Flows listed per table in the replay report. */
    public static final int DEFAULT_REPORT_TOP = 10;
    /** Replay: probe period of the packet generator (the experiments' {@code probe_ns}). */
    public static final long DEFAULT_PROBE_NS = 2_000;
    public static final String DESCRIPTION = "MIDST: ingress/egress count-min Δ-sketches for heavy losers and bursty flows,"
            + " reactive monitoring on queue depth, data-plane cleaning with dirty words";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return DESCRIPTION;
    }

    @Override
    public List<ParamSpec> params() {
        MidstConfig d = MidstConfig.defaults();
        return List.of(
                ParamSpec.integer("rows", d.rows(), 1, MidstConfig.MAX_ROWS, "r: rows of S_in and S_out (one stateful ALU each)"),
                ParamSpec.integer("columns", d.columns(), MidstConfig.COUNTERS_PER_DIRTY_WORD, 1 << 24,
                        "c: 32-bit counters per row, a multiple of 32; a power of two on targets without a divider (tofino1)"),
                ParamSpec.integer("loss_threshold", d.lossThreshold(), 1, 1L << 32, "heavy-loser flag: min_i(u_i - v_i) at least this"),
                ParamSpec.integer("burst_threshold", d.burstThreshold(), 1, 1L << 32, "bursty-flow flag: min_i u_i at least this"),
                ParamSpec.integer("high", d.highWater(), 1, 1 << 19, "h: start monitoring at this queue depth (80 B cells)"),
                ParamSpec.integer("low", d.lowWater(), 0, 1 << 19, "l: stop monitoring and clean below this depth (cells)"),
                ParamSpec.integer("port", d.dataPort(), 0, 447, "monitored egress port every data packet goes to"),
                ParamSpec.integer("collector", d.collectorPort(), 0, 447, "port towards the collector (monitor / cleaning reports)"),
                ParamSpec.integer("dirty_words", 1, 0, 1, "1: clean with a dirty word per 32 counters; 0: one counter per packet"),
                ParamSpec.integer("pipes", MidstConfig.DEFAULT_PIPES, 1, MidstConfig.MAX_PIPES,
                        "P: pipes with monitored traffic (a power of two); port + j x ports_per_pipe is pipe j's monitored port"),
                ParamSpec.integer("queues", MidstConfig.DEFAULT_QUEUES, 1, MidstConfig.MAX_QUEUES,
                        "Q: monitored queues per port (a power of two); queue = destination address & (Q-1)"),
                ParamSpec.integer("ports_per_pipe", MidstConfig.DEFAULT_PORTS_PER_PIPE, 1, 448,
                        "front-panel ports per pipe of the target (tofino1: 16): ingress pipe = port >> log2 of this"),
                ParamSpec.integer("probe_ns", DEFAULT_PROBE_NS, 0, 1_000_000_000L,
                        "replay: a queue-depth probe every this many ns (reactive monitoring); 0 = no probes"),
                ParamSpec.integer("top", DEFAULT_REPORT_TOP, 1, 100_000,
                        "replay report: heavy losers and bursty flows listed (S_loss query at the end of the run)"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        MidstParams x = MidstParams.from(p);
        return new MidstPipeline(x.config()).program.withConfig(x);
    }

    /** The pipeline with its field handles (for collectors and tests). */
    public static MidstPipeline pipeline(ProgramParams p) {
        return new MidstPipeline(config(p));
    }

    public static MidstConfig config(ProgramParams p) {
        return new MidstConfig(p.intValue("rows"), p.intValue("columns"), p.longValue("loss_threshold"),
                p.longValue("burst_threshold"), p.longValue("high"), p.longValue("low"), p.intValue("port"),
                p.intValue("collector"), p.intValue("dirty_words") == 1, p.intValue("pipes"), p.intValue("queues"),
                p.intValue("ports_per_pipe"));
    }
}
