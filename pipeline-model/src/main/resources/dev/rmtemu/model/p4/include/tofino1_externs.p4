// TNA on Tofino 1: externs (rmtemu's own declaration of TNA's documented interface).
#ifndef RMTEMU_TOFINO1_EXTERNS_P4
#define RMTEMU_TOFINO1_EXTERNS_P4

// ---- parser externs

// The parser's 16-bit ones'-complement checksum engine; also the deparser's update.
extern Checksum {
    Checksum();
    void add<T>(in T data);                        // add fields (whole 16-bit words)
    void subtract<T>(in T data);                   // take fields out again (adds their ones' complements)
    bool verify();                                 // true when the checksum is wrong: the sum is not 0xFFFF
    void subtract_all_and_deposit<T>(out T residual); // headers extracted later are subtracted; the final sum
    bit<16> get();                                 // the folded sum so far (a residual for update)
    bit<16> update<T>(in T data, @optional in bool zeros_as_ones);  // deparser: the checksum of data
}

// The parser's 8-bit signed counter.
extern ParserCounter {
    ParserCounter();
    void set<T>(in T value);
    void set<T>(in T field, in bit<8> max, in bit<8> rotate, in bit<3> mask, in bit<8> add);
    bool is_zero();
    bool is_negative();
    void increment(in bit<8> value);
    void decrement(in bit<8> value);
}

// The priority the ingress parser gives a packet when its buffer fills.
extern ParserPriority {
    ParserPriority();
    void set(in bit<3> prio);
}

// ---- hashes and random numbers

// A CRC's parameters, for HashAlgorithm_t.CUSTOM.
extern CRCPolynomial<T> {
    CRCPolynomial(T coeff, bool reversed, bool msb, bool extended, T init, T xor);
}

// A hash unit giving W bits.
extern Hash<W> {
    Hash(HashAlgorithm_t algo);
    Hash(HashAlgorithm_t algo, CRCPolynomial<_> poly);
    W get<D>(in D data);
}

// Uniform random W bits.
extern Random<W> {
    Random();
    W get();
}

// ---- functions

extern T max<T>(in T t1, in T t2);
extern T min<T>(in T t1, in T t2);
extern void funnel_shift_right<T>(inout T dst, in T src1, in T src2, int shift_amount);
extern void invalidate<T>(in T field);
extern bool is_validated<T>(in T field);
// The ingress parser's port metadata (the first PORT_METADATA_SIZE bits), as a T.
extern T port_metadata_unpack<T>(packet_in pkt);
extern bit<32> sizeInBits<H>(in H h);
extern bit<32> sizeInBytes<H>(in H h);

// ---- counters, meters, LPF, WRED

extern Counter<W, I> {
    Counter(bit<32> size, CounterType_t type);
    void count(in I index, @optional in bit<32> adjust_byte_count);
}

extern DirectCounter<W> {
    DirectCounter(CounterType_t type);
    void count(@optional in bit<32> adjust_byte_count);
}

extern Meter<I> {
    Meter(bit<32> size, MeterType_t type);
    Meter(bit<32> size, MeterType_t type, bit<8> red, bit<8> yellow, bit<8> green);
    bit<8> execute(in I index, in MeterColor_t color, @optional in bit<32> adjust_byte_count);
    bit<8> execute(in I index, @optional in bit<32> adjust_byte_count);
}

extern DirectMeter {
    DirectMeter(MeterType_t type);
    DirectMeter(MeterType_t type, bit<8> red, bit<8> yellow, bit<8> green);
    bit<8> execute(in MeterColor_t color, @optional in bit<32> adjust_byte_count);
    bit<8> execute(@optional in bit<32> adjust_byte_count);
}

// Low-pass filter.
extern Lpf<T, I> {
    Lpf(bit<32> size);
    T execute(in T val, in I index);
}

extern DirectLpf<T> {
    DirectLpf();
    T execute(in T val);
}

// Weighted random early detection.
extern Wred<T, I> {
    Wred(bit<32> size, bit<8> drop_value, bit<8> no_drop_value);
    bit<8> execute(in T val, in I index);
}

extern DirectWred<T> {
    DirectWred(bit<8> drop_value, bit<8> no_drop_value);
    bit<8> execute(in T val);
}

// ---- registers and the stateful ALU

// size cells of T, indexed by I.
extern Register<T, I> {
    Register(bit<32> size);
    Register(bit<32> size, T initial_value);
    T read(in I index);
    T write(in I index, in T value);
}

// One cell of T per entry of the table that owns it.
extern DirectRegister<T> {
    DirectRegister();
    DirectRegister(T initial_value);
    T read();
    T write(in T value);
}

// A value the control plane sets and a register action reads.
extern RegisterParam<T> {
    RegisterParam(T initial_value);
    T read();
}

// A stateful ALU's math unit.
extern MathUnit<T> {
    MathUnit(bool invert, int<2> shift, int<6> scale,
             tuple<bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>,
                   bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>, bit<8>> data);
    MathUnit(MathOp_t op, int factor);
    MathUnit(MathOp_t op, int A, int B);
    T execute(in T x);
}

// One read-modify-write of a Register's cell by the stateful ALU; the program writes apply.
extern RegisterAction<T, I, U> {
    RegisterAction(Register<_, _> reg);
    U execute(in I index);
    U execute_log();
    @synchronous(execute, execute_log)
    abstract void apply(inout T value, @optional out U rv);
    U predicate(@optional in bool cmplo, @optional in bool cmphi);
}

extern DirectRegisterAction<T, U> {
    DirectRegisterAction(DirectRegister<T> reg);
    U execute();
    @synchronous(execute)
    abstract void apply(inout T value, @optional out U rv);
    U predicate(@optional in bool cmplo, @optional in bool cmphi);
}

// ---- action profiles and selectors

extern ActionProfile {
    ActionProfile(bit<32> size);
}

extern ActionSelector {
    ActionSelector(ActionProfile action_profile, Hash<_> hash, SelectorMode_t mode, bit<32> max_group_size, bit<32> num_groups);
    ActionSelector(ActionProfile action_profile, Hash<_> hash, SelectorMode_t mode, Register<bit<1>, _> reg,
                   bit<32> max_group_size, bit<32> num_groups);
    @deprecated("give ActionSelector an ActionProfile")
    ActionSelector(bit<32> size, Hash<_> hash, SelectorMode_t mode);
    @deprecated("give ActionSelector an ActionProfile")
    ActionSelector(bit<32> size, Hash<_> hash, SelectorMode_t mode, Register<bit<1>, _> reg);
}

extern SelectorAction {
    SelectorAction(ActionSelector sel);
    bit<1> execute(@optional in bit<32> index);
    @synchronous(execute)
    abstract void apply(inout bit<1> value, @optional out bit<1> rv);
}

// ---- deparser externs

// A copy of the packet to a mirror session, with a header in front.
extern Mirror {
    @deprecated("give Mirror the mirror_type it answers to")
    Mirror();
    Mirror(MirrorType_t mirror_type);
    void emit(in MirrorId_t session_id);
    void emit<T>(in MirrorId_t session_id, in T hdr);
}

// The packet back to the start of ingress, with up to 64 bits of metadata.
extern Resubmit {
    @deprecated("give Resubmit the resubmit_type it answers to")
    Resubmit();
    Resubmit(ResubmitType_t resubmit_type);
    void emit();
    void emit<T>(in T hdr);
}

// A message to the control plane.
extern Digest<T> {
    @deprecated("give Digest the digest_type it answers to")
    Digest();
    Digest(DigestType_t digest_type);
    void pack(in T data);
}

// ---- table implementations (performance hints)

extern Atcam {
    Atcam(@optional bit<32> number_partitions);
}

extern Alpm {
    Alpm(@optional bit<32> number_partitions, @optional bit<32> subtrees_per_partition,
         @optional bit<32> atcam_subset_width, @optional bit<32> shift_granularity);
}

#endif
