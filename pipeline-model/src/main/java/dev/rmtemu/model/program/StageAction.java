package dev.rmtemu.model.program;

import dev.rmtemu.model.runtime.StageContext;

/** The action code of one stage, run once per packet pass through it. */
@FunctionalInterface
public interface StageAction {
    void apply(StageContext ctx);
}
