package dev.rmtemu.programs.wbmon.program;

import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

import java.util.List;

/** {@code wbmon}: the WBMon m-switch data plane ({@link WbmonPipeline}) as a named program. */
public final class WbmonProgram implements ProgramFactory {
    public static final String NAME = "wbmon";
    public static final String DESCRIPTION = "WBMon m-switch: per-vconn sequence numbers upstream (egress),"
            + " window-based drop detection downstream (ingress: N bitmaps of W bits, tolerance window tws)";

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
        WbmonConfig d = WbmonConfig.defaults();
        return List.of(
                ParamSpec.integer("vconns", d.vconns(), 1, 1 << WbmonConfig.VCONN_ID_BITS, "vconns tracked (cells per register array)"),
                ParamSpec.integer("registers", d.registers(), 2, 64, "N: bitmap registers per vconn, a power of two"),
                ParamSpec.integer("bits", d.bitsPerRegister(), WbmonConfig.BITS_PER_COUNT_TABLE, WbmonConfig.MAX_BITS,
                        "W: bits per register (8, 16 or 32)"),
                ParamSpec.integer("tolerance", d.tolerance(), 1, 63, "tws: slots of the tolerance window (cws = N - tws)"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        WbmonConfig c = config(p);
        return new WbmonPipeline(c).program.withConfig(c);
    }

    public static WbmonPipeline pipeline(ProgramParams p) {
        return new WbmonPipeline(config(p));
    }

    /** The parameters typed: built once when the program is built and carried by it ({@link WbmonConfig#of}). */
    public static WbmonConfig config(ProgramParams p) {
        return new WbmonConfig(p.intValue("vconns"), p.intValue("registers"), p.intValue("bits"), p.intValue("tolerance"));
    }
}
