package dev.rmtemu.model.register;

import java.util.ArrayList;
import java.util.List;

/**
 * A stateful-ALU program over one register cell, in the shape of a Tofino
 * RegisterAction: up to two conditions over the stored words and the two ALU
 * inputs, up to a few predicated update branches per word (the first branch
 * whose predicate holds wins; none: the word keeps its value), and one output.
 * It is classified as the least {@link AtomTemplate} that can run it.
 *
 * <p>Example, HashPipe-style "increment if the key matches, else report":
 * <pre>{@code
 * RegisterAction.on(keysAndCounts, "match_or_swap")
 *     .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)           // c0: key matches
 *     .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.constant(1))
 *     .updateHi(Predicate.NOT_C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
 *     .updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0))
 *     .output(Predicate.NOT_C0, OutputSource.OLD_LO)
 *     .build();
 * }</pre>
 */
public final class RegisterAction {
    /** What the action returns to the stage. */
    public enum OutputSource { NONE, OLD_LO, OLD_HI, NEW_LO, NEW_HI, PREDICATE }

    /** Arbitrary update code for targets that allow {@link AtomTemplate#FREEFORM}. */
    @FunctionalInterface
    public interface FreeformUpdate {
        /** Updates {@code cell.lo}/{@code cell.hi} in place and returns the output. */
        long apply(Cell cell, long inLo, long inHi);
    }

    /** The mutable view a free-form update works on. */
    public static final class Cell {
        public long lo;
        public long hi;
    }

    private record Condition(Operand a, CmpOp op, Operand b) {
    }

    private record Branch(Predicate predicate, AluOp op, Operand a, Operand b) {
    }

    private final RegisterArray array;
    private final String name;
    private final Condition[] conditions;
    private final Branch[] loBranches;
    private final Branch[] hiBranches;
    private final OutputSource output;
    private final Predicate outputPredicate;
    private final FreeformUpdate freeform;
    private final Cell cell = new Cell();
    private final AtomTemplate template;
    private final long mask;
    /** The action compiled to a class of its own, what packets run (null for free-form actions). */
    private final RegisterKernel kernel;

    private RegisterAction(Builder b) {
        this.array = b.array;
        this.name = b.name;
        this.conditions = b.conditions.toArray(new Condition[0]);
        this.loBranches = b.loBranches.toArray(new Branch[0]);
        this.hiBranches = b.hiBranches.toArray(new Branch[0]);
        this.output = b.output;
        this.outputPredicate = b.outputPredicate;
        this.freeform = b.freeform;
        this.mask = array.wordMask();
        this.template = classify();
        this.kernel = freeform == null ? KernelCompiler.compile(compile()) : null;
    }

    private CompiledAction compile() {
        int nc = conditions.length;
        int[] ca = new int[nc];
        long[] cac = new long[nc];
        int[] cop = new int[nc];
        int[] cb = new int[nc];
        long[] cbc = new long[nc];
        for (int i = 0; i < nc; i++) {
            ca[i] = conditions[i].a().kind().ordinal();
            cac[i] = conditions[i].a().constant();
            cop[i] = conditions[i].op().ordinal();
            cb[i] = conditions[i].b().kind().ordinal();
            cbc[i] = conditions[i].b().constant();
        }
        int n = loBranches.length + hiBranches.length;
        int[] truth = new int[n];
        int[] op = new int[n];
        int[] a = new int[n];
        long[] ac = new long[n];
        int[] b = new int[n];
        long[] bc = new long[n];
        for (int i = 0; i < n; i++) {
            Branch br = i < loBranches.length ? loBranches[i] : hiBranches[i - loBranches.length];
            truth[i] = br.predicate().truthTable();
            op[i] = br.op().ordinal();
            a[i] = br.a().kind().ordinal();
            ac[i] = br.a().constant();
            b[i] = br.b().kind().ordinal();
            bc[i] = br.b().constant();
        }
        return new CompiledAction(mask, array.size(), nc, ca, cac, cop, cb, cbc, loBranches.length, hiBranches.length, truth, op, a,
                ac, b, bc, output.ordinal(), outputPredicate.truthTable());
    }

    public static Builder on(RegisterArray array, String name) {
        return new Builder(array, name);
    }

    /**
     * This action on {@code other}, an array of the same shape (the compiler's table placement
     * gives an unplaced array its stage by making it anew).
     */
    public RegisterAction on(RegisterArray other) {
        if (other.wordBits() != array.wordBits() || other.pair() != array.pair()) {
            throw new IllegalArgumentException(array.name() + "." + name + ": " + other.name() + " has another cell shape");
        }
        Builder b = new Builder(other, name);
        b.conditions.addAll(List.of(conditions));
        b.loBranches.addAll(List.of(loBranches));
        b.hiBranches.addAll(List.of(hiBranches));
        b.output = output;
        b.outputPredicate = outputPredicate;
        b.freeform = freeform;
        return new RegisterAction(b);
    }

    /** A free-form action; only targets listing FREEFORM accept it. */
    public static RegisterAction freeform(RegisterArray array, String name, FreeformUpdate update) {
        Builder b = new Builder(array, name);
        b.freeform = update;
        return b.build();
    }

    private AtomTemplate classify() {
        if (freeform != null) {
            return AtomTemplate.FREEFORM;
        }
        boolean hi = hiBranches.length > 0 || output == OutputSource.OLD_HI || output == OutputSource.NEW_HI;
        boolean sub = false;
        for (Condition c : conditions) {
            hi |= c.a().touchesHi() || c.b().touchesHi();
        }
        for (Branch[] branches : new Branch[][] {loBranches, hiBranches}) {
            for (Branch br : branches) {
                hi |= br.a().touchesHi() || br.b().touchesHi();
                sub |= br.op() == AluOp.SUB;
            }
        }
        if (hi) {
            return AtomTemplate.PAIR;
        }
        if (conditions.length >= 2) {
            return AtomTemplate.NESTED_IF;
        }
        if (sub) {
            return AtomTemplate.SUB;
        }
        if (conditions.length == 1) {
            return loBranches.length >= 2 ? AtomTemplate.IF_ELSE_RAW : AtomTemplate.PRAW;
        }
        if (loBranches.length == 0) {
            return AtomTemplate.READ;
        }
        Branch only = loBranches[0];
        boolean readsRegister = only.a().isRegister() || (only.op() != AluOp.SET && only.b().isRegister());
        return readsRegister ? AtomTemplate.RAW : AtomTemplate.WRITE;
    }

    /**
     * Runs the action on cell {@code index} of the given storage ({@code hi} is
     * null for single-word arrays) and returns the output. No allocation.
     */
    public long execute(long[] lo, long[] hi, int index, long inLo, long inHi) {
        if (kernel != null) {
            return kernel.execute(lo, hi, index, inLo, inHi);
        }
        return interpret(lo, hi, index, inLo, inHi);
    }

    /**
     * The declarative semantics, straight from the branch and condition records: the
     * oracle the compiled form is tested against, and the runner of free-form actions.
     */
    long interpret(long[] lo, long[] hi, int index, long inLo, long inHi) {
        long oldLo = lo[index];
        long oldHi = hi == null ? 0 : hi[index];
        if (freeform != null) {
            Cell c = cell;
            c.lo = oldLo;
            c.hi = oldHi;
            long out = freeform.apply(c, inLo, inHi);
            lo[index] = c.lo & mask;
            if (hi != null) {
                hi[index] = c.hi & mask;
            }
            return out;
        }
        int p = 0;
        Condition[] cs = conditions;
        if (cs.length > 0 && cs[0].op().test(operand(cs[0].a(), lo, oldLo, oldHi, inLo, inHi), operand(cs[0].b(), lo, oldLo, oldHi, inLo, inHi))) {
            p |= 1;
        }
        if (cs.length > 1 && cs[1].op().test(operand(cs[1].a(), lo, oldLo, oldHi, inLo, inHi), operand(cs[1].b(), lo, oldLo, oldHi, inLo, inHi))) {
            p |= 2;
        }
        int bit = 1 << p;
        long newLo = oldLo;
        for (Branch br : loBranches) {
            if ((br.predicate().truthTable() & bit) != 0) {
                newLo = alu(br, lo, oldLo, oldHi, inLo, inHi);
                break;
            }
        }
        long newHi = oldHi;
        for (Branch br : hiBranches) {
            if ((br.predicate().truthTable() & bit) != 0) {
                newHi = alu(br, lo, oldLo, oldHi, inLo, inHi);
                break;
            }
        }
        lo[index] = newLo;
        if (hi != null) {
            hi[index] = newHi;
        }
        if ((outputPredicate.truthTable() & bit) == 0) {
            return 0;
        }
        return switch (output) {
            case NONE -> 0;
            case OLD_LO -> oldLo;
            case OLD_HI -> oldHi;
            case NEW_LO -> newLo;
            case NEW_HI -> newHi;
            case PREDICATE -> p;
        };
    }

    private long operand(Operand o, long[] file, long lo, long hi, long inLo, long inHi) {
        return switch (o.kind()) {
            case REG_LO -> lo;
            case REG_HI -> hi;
            case IN_LO -> inLo & mask;
            case IN_HI -> inHi & mask;
            case CONST -> o.constant() & mask;
            case PARAM -> file[array.size() + (int) o.constant()] & mask;
        };
    }

    private long alu(Branch br, long[] file, long lo, long hi, long inLo, long inHi) {
        long a = operand(br.a(), file, lo, hi, inLo, inHi);
        long b = operand(br.b(), file, lo, hi, inLo, inHi);
        long r = switch (br.op()) {
            case SET -> a;
            case ADD -> a + b;
            case SUB -> a - b;
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
            case MIN -> Long.compareUnsigned(a, b) <= 0 ? a : b;
            case MAX -> Long.compareUnsigned(a, b) >= 0 ? a : b;
        };
        return r & mask;
    }

    /** The action's generated code, or null for a free-form action (run through {@link #execute}). */
    public RegisterKernel kernel() {
        return kernel;
    }

    public RegisterArray array() {
        return array;
    }

    public String name() {
        return name;
    }

    public AtomTemplate template() {
        return template;
    }

    public int conditionCount() {
        return conditions.length;
    }

    /** Most update branches on either word. */
    public int maxBranchesPerWord() {
        return Math.max(loBranches.length, hiBranches.length);
    }

    @Override
    public String toString() {
        return array.name() + "." + name + " (" + template + ")";
    }

    /**
     * The action as a Tofino RegisterAction body reads: its conditions, the
     * predicated updates of each word and the output, one line each.
     */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        if (freeform != null) {
            out.add("// free-form update in Java (runs on targets with the FREEFORM template only)");
            return out;
        }
        for (int i = 0; i < conditions.length; i++) {
            Condition c = conditions[i];
            out.add("c" + i + " = " + c.a() + " " + c.op().symbol() + " " + c.b() + ";");
        }
        for (Branch br : loBranches) {
            out.add(guard(br.predicate()) + "lo = " + expression(br) + ";");
        }
        for (Branch br : hiBranches) {
            out.add(guard(br.predicate()) + "hi = " + expression(br) + ";");
        }
        if (output != OutputSource.NONE) {
            String v = switch (output) {
                case OLD_LO -> "old lo";
                case OLD_HI -> "old hi";
                case NEW_LO -> "new lo";
                case NEW_HI -> "new hi";
                case PREDICATE -> "predicate";
                default -> "0";
            };
            out.add(outputPredicate.equals(Predicate.ALWAYS) ? "output = " + v + ";"
                    : "output = (" + describe(outputPredicate) + ") ? " + v + " : 0;");
        }
        return out;
    }

    private static String guard(Predicate p) {
        return p.equals(Predicate.ALWAYS) ? "" : "if (" + describe(p) + ") ";
    }

    private static String expression(Branch br) {
        return switch (br.op()) {
            case SET -> br.a().toString();
            case ADD -> br.a() + " + " + br.b();
            case SUB -> br.a() + " - " + br.b();
            case AND -> br.a() + " & " + br.b();
            case OR -> br.a() + " | " + br.b();
            case XOR -> br.a() + " ^ " + br.b();
            case MIN -> "min(" + br.a() + ", " + br.b() + ")";
            case MAX -> "max(" + br.a() + ", " + br.b() + ")";
        };
    }

    /** A predicate over c0 and c1 in words: the sum of the minterms its truth table holds. */
    static String describe(Predicate p) {
        List<String> terms = new ArrayList<>();
        String[] minterm = {"!c0 && !c1", "c0 && !c1", "!c0 && c1", "c0 && c1"};
        for (Predicate known : new Predicate[] {Predicate.C0, Predicate.NOT_C0, Predicate.C1, Predicate.NOT_C1}) {
            if (known.equals(p)) {
                return known == Predicate.C0 ? "c0" : known == Predicate.NOT_C0 ? "!c0" : known == Predicate.C1 ? "c1" : "!c1";
            }
        }
        for (int bit = 0; bit < 4; bit++) {
            if ((p.truthTable() & (1 << bit)) != 0) {
                terms.add(minterm[bit]);
            }
        }
        return terms.isEmpty() ? "false" : String.join(" || ", terms);
    }

    /** Builds a {@link RegisterAction}; limits are checked against the target by the resource checker. */
    public static final class Builder {
        private final RegisterArray array;
        private final String name;
        private final List<Condition> conditions = new ArrayList<>();
        private final List<Branch> loBranches = new ArrayList<>();
        private final List<Branch> hiBranches = new ArrayList<>();
        private OutputSource output = OutputSource.NONE;
        private Predicate outputPredicate = Predicate.ALWAYS;
        private FreeformUpdate freeform;

        private Builder(RegisterArray array, String name) {
            this.array = array;
            this.name = name;
        }

        /**
         * Adds condition c0, c1, ... in order. How many a stateful ALU evaluates is the
         * target's rule, refused by the compiler with the stage and pass; predicates name
         * at most {@link Predicate#CONDITIONS} of them.
         */
        public Builder condition(Operand a, CmpOp op, Operand b) {
            conditions.add(new Condition(a, op, b));
            return this;
        }

        public Builder updateLo(Predicate when, AluOp op, Operand a, Operand b) {
            loBranches.add(new Branch(when, op, a, b));
            return this;
        }

        public Builder updateLo(AluOp op, Operand a, Operand b) {
            return updateLo(Predicate.ALWAYS, op, a, b);
        }

        public Builder updateHi(Predicate when, AluOp op, Operand a, Operand b) {
            if (!array.pair()) {
                throw new IllegalArgumentException(array.name() + "." + name + ": array has no hi word (declare it as a pair)");
            }
            hiBranches.add(new Branch(when, op, a, b));
            return this;
        }

        public Builder updateHi(AluOp op, Operand a, Operand b) {
            return updateHi(Predicate.ALWAYS, op, a, b);
        }

        public Builder output(OutputSource source) {
            return output(Predicate.ALWAYS, source);
        }

        public Builder output(Predicate when, OutputSource source) {
            this.output = source;
            this.outputPredicate = when;
            return this;
        }

        public RegisterAction build() {
            for (Condition c : conditions) {
                if (!array.pair() && (c.a().touchesHi() || c.b().touchesHi())) {
                    throw new IllegalArgumentException(array.name() + "." + name + ": condition reads the hi word of a single-word array");
                }
            }
            if (!array.pair() && (output == OutputSource.OLD_HI || output == OutputSource.NEW_HI)) {
                throw new IllegalArgumentException(array.name() + "." + name + ": output of the hi word of a single-word array");
            }
            return new RegisterAction(this);
        }
    }
}
