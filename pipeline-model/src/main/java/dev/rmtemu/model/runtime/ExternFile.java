package dev.rmtemu.model.runtime;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterCells;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterCells;
import dev.rmtemu.model.phv.Gress;

import java.util.List;

/** The counters and meters of one pipe and gress, by id (null for the other gress's). */
public final class ExternFile {
    final CounterCells[] counters;
    final MeterCells[] meters;

    public ExternFile(List<Counter> allCounters, List<Meter> allMeters, Gress gress) {
        counters = new CounterCells[allCounters.size()];
        meters = new MeterCells[allMeters.size()];
        for (Counter c : allCounters) {
            if (c.gress() == gress) {
                counters[c.id()] = new CounterCells(c);
            }
        }
        for (Meter m : allMeters) {
            if (m.gress() == gress) {
                meters[m.id()] = new MeterCells(m);
            }
        }
    }

    public CounterCells counter(Counter c) {
        return counters[c.id()];
    }

    public MeterCells meter(Meter m) {
        return meters[m.id()];
    }
}
