package dev.rmtemu.model.parse;

import dev.rmtemu.model.codegen.GeneratedClasses;
import dev.rmtemu.model.codegen.SharedHiddenClasses;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;

/**
 * A graph's lean parse as straight-line code: {@link PacketParser}'s compiled plan (its int
 * array of operations, reads and selects per state) translated into one method of a hidden
 * class, generated with ASM, in which every offset, shift, mask and select value is a constant
 * and every transition a jump, so a packet costs its reads and compares, not the walk of the
 * plan; a header's tail length is computed inline from its constants. The rare paths (errors,
 * a select on ranges, value sets or lookahead) call back into the parser, which keeps the one definition of each. Same results, errors and
 * counts as the plan it was made from ({@code LeanParseCodeTest} holds the two equal on random
 * graphs and frames). Subclasses are generated only.
 */
abstract class LeanParseCode {
    private static final String SUPER = "dev/rmtemu/model/parse/LeanParseCode";
    private static final String NAME = "dev/rmtemu/model/parse/LeanParseCode$Generated";
    private static final String PARSER = "dev/rmtemu/model/parse/PacketParser";
    private static final String RESULT = "dev/rmtemu/model/parse/ParseResult";
    private static final String CTOR = "(L" + PARSER + ";)V";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /**
     * Bytecode bytes of the run method above which the plan stays interpreted: HotSpot does not
     * JIT-compile a method longer than 8,000 bytes (HugeMethodLimit, unless
     * -XX:-DontCompileHugeMethods), and interpreted bytecode would be slower than the plan. A
     * graph of a few dozen states fits (MIDST's, with its probe and report headers: about 6,500).
     */
    static final int MAX_METHOD_BYTES = 8_000;

    /** The parser whose plan this is: its error counts, value sets and general select. */
    protected final PacketParser parser;

    protected LeanParseCode(PacketParser parser) {
        this.parser = parser;
    }

    /**
     * The lean parse of {@code buf} from {@code off} ({@code r} already reset, the bounds
     * checked): true on accept.
     */
    abstract boolean run(byte[] buf, int off, int readable, int caplen, int wireLen, ParseResult r);

    // locals of run()
    private static final int BUF = 1;
    private static final int OFF = 2;
    private static final int READABLE = 3;
    private static final int CAPLEN = 4;
    private static final int WIRE_LEN = 5;
    private static final int R = 6;
    private static final int WORDS = 7;
    private static final int VALID = 8;
    private static final int LAST_LONG = 9;
    private static final int CURSOR = 10;
    private static final int STEPS = 11;
    private static final int AT = 12;
    private static final int TAIL = 13;
    private static final int P = 14;
    private static final int TARGET = 15;
    /** A header's tail length before its bounds are checked (a long: two slots). */
    private static final int LENGTH = 16;
    /** The eight bytes a group of reads shares (a long: two slots). */
    private static final int GROUP_WORD = 18;
    /** Select keys, two slots each. */
    private static final int KEYS = 20;

    /**
     * The code of a plan ({@link PacketParser}'s layout), or null when its method would be too
     * long to be compiled by the JIT (the plan then stays interpreted).
     *
     * @param cyclic whether a state can be reached again (only then are steps counted)
     */
    static LeanParseCode compile(PacketParser parser, int[] code, int[] entry, long[] mask, long[] value,
                                 boolean cyclic, int maxSteps) {
        ClassWriter cw = GeneratedClasses.begin(NAME, SUPER, CTOR);
        MethodVisitor m = cw.visitMethod(0, "run", "([BIIIIL" + RESULT + ";)Z", null, null);
        m.visitCode();
        new Emitter(parser, m, code, entry, mask, value, cyclic, maxSteps).emit();
        Label methodEnd = new Label();
        m.visitLabel(methodEnd);
        m.visitMaxs(0, 0);
        m.visitEnd();
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        if (methodEnd.getOffset() > MAX_METHOD_BYTES) {
            return null;
        }
        try {
            return (LeanParseCode) CLASSES.constructorFor(bytes).invoke(parser);
        } catch (Throwable e) {
            throw new IllegalStateException("generating a parser's code failed", e);
        }
    }

    private static final int CACHED_CLASSES = 32;
    /** Classes shared by switches running the same plan (see {@link SharedHiddenClasses}). */
    private static final SharedHiddenClasses CLASSES =
            new SharedHiddenClasses(LOOKUP, MethodType.methodType(void.class, PacketParser.class), CACHED_CLASSES);

    private static final class Emitter {
        private final PacketParser parser;
        private final MethodVisitor m;
        private final int[] code;
        private final int[] entry;
        private final long[] mask;
        private final long[] value;
        private final boolean cyclic;
        private final int maxSteps;
        private final Label[] states;
        private final Label accept = new Label();
        /** Per header: the plan's extract operations of it ({@link #extractsPerHeader}). */
        private final int[] extracts;

        Emitter(PacketParser parser, MethodVisitor m, int[] code, int[] entry, long[] mask, long[] value, boolean cyclic,
                int maxSteps) {
            this.parser = parser;
            this.m = m;
            this.code = code;
            this.entry = entry;
            this.mask = mask;
            this.value = value;
            this.cyclic = cyclic;
            this.maxSteps = maxSteps;
            states = new Label[entry.length];
            for (int s = 0; s < states.length; s++) {
                states[s] = new Label();
            }
            extracts = extractsPerHeader();
        }

        /**
         * How many extract operations of the plan name each header. In a graph without a cycle
         * every state runs at most once per packet, so a header one operation extracts cannot
         * be extracted twice in a parse (and reset leaves it invalid): its repeat check is dead.
         */
        private int[] extractsPerHeader() {
            int headers = 0;
            int[] counts = new int[0];
            for (int s = 0; s < entry.length; s++) {
                int pc = entry[s];
                for (int ops = code[pc++]; ops > 0; ops--) {
                    int op = code[pc++];
                    if (op < 0) {
                        continue;
                    }
                    if (op >= headers) {
                        headers = op + 1;
                        counts = Arrays.copyOf(counts, headers);
                    }
                    counts[op]++;
                    pc++; // fixed bytes
                    pc += code[pc] * PacketParser.READ_INTS + 1; // reads
                    pc++; // length word
                }
            }
            return counts;
        }

        void emit() {
            prologue();
            for (int s = 0; s < entry.length; s++) {
                m.visitLabel(states[s]);
                state(s);
            }
            m.visitLabel(accept);
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitVarInsn(Opcodes.ILOAD, CURSOR);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, PARSER, "accepted", "(L" + RESULT + ";I)Z", false);
            m.visitInsn(Opcodes.IRETURN);
        }

        private void prologue() {
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitFieldInsn(Opcodes.GETFIELD, RESULT, "words", "[J");
            m.visitVarInsn(Opcodes.ASTORE, WORDS);
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitFieldInsn(Opcodes.GETFIELD, RESULT, "valid", "[Z");
            m.visitVarInsn(Opcodes.ASTORE, VALID);
            m.visitVarInsn(Opcodes.ALOAD, BUF);
            m.visitInsn(Opcodes.ARRAYLENGTH);
            m.visitLdcInsn(Long.BYTES);
            m.visitInsn(Opcodes.ISUB);
            m.visitVarInsn(Opcodes.ISTORE, LAST_LONG);
            m.visitVarInsn(Opcodes.ALOAD, 0);
            m.visitFieldInsn(Opcodes.GETFIELD, SUPER, "parser", "L" + PARSER + ";");
            m.visitVarInsn(Opcodes.ASTORE, P);
            for (int local : new int[] {CURSOR, STEPS, AT, TAIL, TARGET}) {
                m.visitInsn(Opcodes.ICONST_0);
                m.visitVarInsn(Opcodes.ISTORE, local);
            }
        }

        private void state(int s) {
            if (cyclic) {
                m.visitIincInsn(STEPS, 1);
                m.visitVarInsn(Opcodes.ILOAD, STEPS);
                m.visitLdcInsn(maxSteps);
                Label ok = new Label();
                m.visitJumpInsn(Opcodes.IF_ICMPLE, ok);
                fail(ParserError.TIMEOUT, s);
                m.visitLabel(ok);
            }
            int pc = entry[s];
            for (int ops = code[pc++]; ops > 0; ops--) {
                int op = code[pc++];
                if (op < 0) {
                    int bytes = -1 - op;
                    boundConst(bytes, s);
                    m.visitIincInsn(CURSOR, bytes);
                    continue;
                }
                pc = extract(op, pc, s);
            }
            int kind = code[pc++];
            if (kind == PacketParser.SEL_PLAIN) {
                jump(code[pc], s);
            } else if (kind == PacketParser.SEL_CASES) {
                cases(pc, s);
            } else {
                general(s);
            }
        }

        /** Extract header {@code h} whose plan operands start at {@code pc}; returns the pc after them. */
        private int extract(int h, int pc, int s) {
            // a header extracted twice (impossible without a cycle when one operation extracts it)
            if (cyclic || extracts[h] > 1) {
                m.visitVarInsn(Opcodes.ALOAD, VALID);
                m.visitLdcInsn(h);
                m.visitInsn(Opcodes.BALOAD);
                Label fresh = new Label();
                m.visitJumpInsn(Opcodes.IFEQ, fresh);
                fail(ParserError.HEADER_REPEATED, s);
                m.visitLabel(fresh);
            }
            int fixed = code[pc++];
            boundConst(fixed, s);
            m.visitVarInsn(Opcodes.ILOAD, OFF);
            m.visitVarInsn(Opcodes.ILOAD, CURSOR);
            m.visitInsn(Opcodes.IADD);
            m.visitVarInsn(Opcodes.ISTORE, AT);
            int reads = code[pc++];
            for (int i = 0; i < reads; ) {
                int n = groupSize(pc, reads - i);
                if (n == 1) {
                    read(pc);
                } else {
                    group(pc, n);
                }
                i += n;
                pc += n * PacketParser.READ_INTS;
            }
            storeInt("offset", h, () -> m.visitVarInsn(Opcodes.ILOAD, CURSOR));
            m.visitIincInsn(CURSOR, fixed);
            int lengthWord = code[pc++];
            if (lengthWord >= 0) {
                // VarbitLength.bytesFor with the header's constants: length x bytesPerUnit + offsetBytes, legal in 0..maxBytes
                VarbitLength v = parser.varbit(h);
                m.visitVarInsn(Opcodes.ALOAD, WORDS);
                m.visitLdcInsn(lengthWord);
                m.visitInsn(Opcodes.LALOAD);
                m.visitLdcInsn((long) v.bytesPerUnit());
                m.visitInsn(Opcodes.LMUL);
                m.visitLdcInsn((long) v.offsetBytes());
                m.visitInsn(Opcodes.LADD);
                m.visitVarInsn(Opcodes.LSTORE, LENGTH);
                Label illegal = new Label();
                Label legal = new Label();
                m.visitVarInsn(Opcodes.LLOAD, LENGTH);
                m.visitInsn(Opcodes.LCONST_0);
                m.visitInsn(Opcodes.LCMP);
                m.visitJumpInsn(Opcodes.IFLT, illegal);
                m.visitVarInsn(Opcodes.LLOAD, LENGTH);
                m.visitLdcInsn((long) v.maxBytes());
                m.visitInsn(Opcodes.LCMP);
                m.visitJumpInsn(Opcodes.IFGT, illegal);
                m.visitVarInsn(Opcodes.LLOAD, LENGTH);
                m.visitInsn(Opcodes.L2I);
                m.visitVarInsn(Opcodes.ISTORE, TAIL);
                m.visitJumpInsn(Opcodes.GOTO, legal);
                m.visitLabel(illegal);
                fail(ParserError.HEADER_LENGTH, s);
                m.visitLabel(legal);
                bound(() -> m.visitVarInsn(Opcodes.ILOAD, TAIL), s);
            }
            storeInt("varbitOffset", h, () -> {
                m.visitVarInsn(Opcodes.ILOAD, OFF);
                m.visitVarInsn(Opcodes.ILOAD, CURSOR);
                m.visitInsn(Opcodes.IADD);
            });
            if (lengthWord >= 0) {
                storeInt("varbitLength", h, () -> m.visitVarInsn(Opcodes.ILOAD, TAIL));
                m.visitVarInsn(Opcodes.ILOAD, CURSOR);
                m.visitVarInsn(Opcodes.ILOAD, TAIL);
                m.visitInsn(Opcodes.IADD);
                m.visitVarInsn(Opcodes.ISTORE, CURSOR);
            } else {
                storeInt("varbitLength", h, () -> m.visitInsn(Opcodes.ICONST_0));
            }
            m.visitVarInsn(Opcodes.ALOAD, VALID);
            m.visitLdcInsn(h);
            m.visitInsn(Opcodes.ICONST_1);
            m.visitInsn(Opcodes.BASTORE);
            // r.order[r.extracted++] = h
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitFieldInsn(Opcodes.GETFIELD, RESULT, "order", "[I");
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitInsn(Opcodes.DUP);
            m.visitFieldInsn(Opcodes.GETFIELD, RESULT, "extracted", "I");
            m.visitInsn(Opcodes.DUP_X1);
            m.visitInsn(Opcodes.ICONST_1);
            m.visitInsn(Opcodes.IADD);
            m.visitFieldInsn(Opcodes.PUTFIELD, RESULT, "extracted", "I");
            m.visitLdcInsn(h);
            m.visitInsn(Opcodes.IASTORE);
            return pc;
        }

        /**
         * Reads from {@code pc} (at most {@code left}) that lie in the eight bytes of the first one:
         * fields in one header's one big-endian long, read once (see {@link #group}).
         */
        private int groupSize(int pc, int left) {
            int base = code[pc];
            if (code[pc + 2] < 0) {
                return 1;
            }
            int n = 1;
            for (int q = pc + PacketParser.READ_INTS; n < left; n++, q += PacketParser.READ_INTS) {
                int shift = code[q + 2];
                int lead = (code[q] - base) * Byte.SIZE + code[q + 1];
                // the read's bits [lead, lead + 64 - shift) of the long at base
                if (shift < 0 || code[q] < base || lead + Long.SIZE - shift > Long.SIZE) {
                    break;
                }
            }
            return n;
        }

        /** {@code words[w] = PacketParser.readAt(buf, at + byte, lead, shift, lastLong)} for the read at {@code pc}. */
        private void read(int pc) {
            m.visitVarInsn(Opcodes.ALOAD, WORDS);
            m.visitLdcInsn(code[pc + 3]);
            m.visitVarInsn(Opcodes.ALOAD, BUF);
            m.visitVarInsn(Opcodes.ILOAD, AT);
            if (code[pc] != 0) {
                m.visitLdcInsn(code[pc]);
                m.visitInsn(Opcodes.IADD);
            }
            m.visitLdcInsn(code[pc + 1]);
            m.visitLdcInsn(code[pc + 2]);
            m.visitVarInsn(Opcodes.ILOAD, LAST_LONG);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, PARSER, "readAt", "([BIIII)J", false);
            m.visitInsn(Opcodes.LASTORE);
        }

        /**
         * The {@code n} reads from {@code pc}, all within the eight bytes of the first: where those
         * bytes are in the buffer, one big-endian long and a shift pair per field. Exact: each
         * read's {@code (long at b << lead) >>> shift} is the same bits of the long at the group's
         * first byte {@code a} shifted left by {@code 8 (b - a) + lead} instead ({@link #groupSize}
         * keeps them inside it); near the buffer's end each read falls back to {@code readAt} as before.
         */
        private void group(int pc, int n) {
            int base = code[pc];
            Label slow = new Label();
            Label done = new Label();
            m.visitVarInsn(Opcodes.ILOAD, AT);
            if (base != 0) {
                m.visitLdcInsn(base);
                m.visitInsn(Opcodes.IADD);
            }
            m.visitVarInsn(Opcodes.ILOAD, LAST_LONG);
            m.visitJumpInsn(Opcodes.IF_ICMPGT, slow);
            m.visitVarInsn(Opcodes.ALOAD, BUF);
            m.visitVarInsn(Opcodes.ILOAD, AT);
            if (base != 0) {
                m.visitLdcInsn(base);
                m.visitInsn(Opcodes.IADD);
            }
            m.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/rmtemu/model/parse/Bits", "bigEndianLong", "([BI)J", false);
            m.visitVarInsn(Opcodes.LSTORE, GROUP_WORD);
            for (int i = 0, q = pc; i < n; i++, q += PacketParser.READ_INTS) {
                int lead = (code[q] - base) * Byte.SIZE + code[q + 1];
                m.visitVarInsn(Opcodes.ALOAD, WORDS);
                m.visitLdcInsn(code[q + 3]);
                m.visitVarInsn(Opcodes.LLOAD, GROUP_WORD);
                if (lead != 0) {
                    m.visitLdcInsn(lead);
                    m.visitInsn(Opcodes.LSHL);
                }
                if (code[q + 2] != 0) {
                    m.visitLdcInsn(code[q + 2]);
                    m.visitInsn(Opcodes.LUSHR);
                }
                m.visitInsn(Opcodes.LASTORE);
            }
            m.visitJumpInsn(Opcodes.GOTO, done);
            m.visitLabel(slow);
            for (int i = 0, q = pc; i < n; i++, q += PacketParser.READ_INTS) {
                read(q);
            }
            m.visitLabel(done);
        }

        /** {@code r.<array>[h] = <value>}. */
        private void storeInt(String array, int h, Runnable value) {
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitFieldInsn(Opcodes.GETFIELD, RESULT, array, "[I");
            m.visitLdcInsn(h);
            value.run();
            m.visitInsn(Opcodes.IASTORE);
        }

        /** Fails with the bound broken unless {@code cursor + bytes <= readable}. */
        private void boundConst(int bytes, int s) {
            bound(() -> m.visitLdcInsn(bytes), s);
        }

        /** Fails with the bound broken unless {@code cursor + (long) n <= readable}, {@code n} an int pushed by {@code n}. */
        private void bound(Runnable n, int s) {
            Label ok = new Label();
            m.visitVarInsn(Opcodes.ILOAD, CURSOR);
            m.visitInsn(Opcodes.I2L);
            n.run();
            m.visitInsn(Opcodes.I2L);
            m.visitInsn(Opcodes.LADD);
            m.visitVarInsn(Opcodes.ILOAD, READABLE);
            m.visitInsn(Opcodes.I2L);
            m.visitInsn(Opcodes.LCMP);
            m.visitJumpInsn(Opcodes.IFLE, ok);
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitVarInsn(Opcodes.ILOAD, CURSOR);
            m.visitInsn(Opcodes.I2L);
            n.run();
            m.visitInsn(Opcodes.I2L);
            m.visitInsn(Opcodes.LADD);
            m.visitVarInsn(Opcodes.ILOAD, READABLE);
            m.visitVarInsn(Opcodes.ILOAD, CAPLEN);
            m.visitVarInsn(Opcodes.ILOAD, WIRE_LEN);
            m.visitLdcInsn(s);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, PARSER, "failBound", "(L" + RESULT + ";JIIII)Z", false);
            m.visitInsn(Opcodes.IRETURN);
            m.visitLabel(ok);
        }

        /** Returns false after recording {@code e} in state {@code s}. */
        private void fail(ParserError e, int s) {
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitLdcInsn(e.ordinal());
            m.visitLdcInsn(s);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, PARSER, "failCode", "(L" + RESULT + ";II)Z", false);
            m.visitInsn(Opcodes.IRETURN);
        }

        /** Goes to state {@code t}, accept, or fails with reject. */
        private void jump(int t, int s) {
            if (t == ParseState.ACCEPT) {
                m.visitJumpInsn(Opcodes.GOTO, accept);
            } else if (t == ParseState.REJECT) {
                fail(ParserError.REJECT, s);
            } else {
                m.visitJumpInsn(Opcodes.GOTO, states[t]);
            }
        }

        /** Mask/value cases on field keys ({@link PacketParser#SEL_CASES}'s operands at {@code pc}), first match wins. */
        private void cases(int pc, int s) {
            int keys = code[pc];
            for (int i = 0; i < keys; i++) {
                m.visitVarInsn(Opcodes.ALOAD, WORDS);
                m.visitLdcInsn(code[pc + 1 + i]);
                m.visitInsn(Opcodes.LALOAD);
                m.visitVarInsn(Opcodes.LSTORE, KEYS + 2 * i);
            }
            int cases = code[pc + keys + 1];
            int at = code[pc + keys + 2];
            int targets = pc + keys + 3;
            for (int b = 0; b < cases; b++, at += keys) {
                Label next = new Label();
                for (int i = 0; i < keys; i++) {
                    long mk = mask[at + i];
                    if (mk == 0) {
                        if (value[at + i] != 0) {
                            m.visitJumpInsn(Opcodes.GOTO, next); // a mask of 0 with a value: never matches
                        }
                        continue;
                    }
                    m.visitVarInsn(Opcodes.LLOAD, KEYS + 2 * i);
                    if (mk != -1L) {
                        m.visitLdcInsn(mk);
                        m.visitInsn(Opcodes.LAND);
                    }
                    m.visitLdcInsn(value[at + i]);
                    m.visitInsn(Opcodes.LCMP);
                    m.visitJumpInsn(Opcodes.IFNE, next);
                }
                jump(code[targets + b], s);
                m.visitLabel(next);
            }
            fail(ParserError.NO_MATCH, s);
        }

        /** The parser's general select (ranges, value sets, lookahead), then a jump by its result. */
        private void general(int s) {
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitVarInsn(Opcodes.ALOAD, BUF);
            m.visitVarInsn(Opcodes.ILOAD, OFF);
            m.visitVarInsn(Opcodes.ILOAD, CURSOR);
            m.visitVarInsn(Opcodes.ILOAD, READABLE);
            m.visitVarInsn(Opcodes.ILOAD, CAPLEN);
            m.visitVarInsn(Opcodes.ILOAD, WIRE_LEN);
            m.visitLdcInsn(s);
            m.visitVarInsn(Opcodes.ALOAD, R);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, PARSER, "selectGeneral", "([BIIIIIIL" + RESULT + ";)I", false);
            m.visitVarInsn(Opcodes.ISTORE, TARGET);
            m.visitVarInsn(Opcodes.ILOAD, TARGET);
            m.visitLdcInsn(ParseState.ACCEPT);
            m.visitJumpInsn(Opcodes.IF_ICMPEQ, accept);
            Label refused = new Label();
            m.visitVarInsn(Opcodes.ILOAD, TARGET);
            m.visitTableSwitchInsn(0, states.length - 1, refused, states);
            // select() never returns reject itself: it records the error and returns below it
            m.visitLabel(refused);
            m.visitInsn(Opcodes.ICONST_0);
            m.visitInsn(Opcodes.IRETURN);
        }
    }
}
