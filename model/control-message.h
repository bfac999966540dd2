/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_CONTROL_MESSAGE_H
#define EDGE_LLM_CONTROL_MESSAGE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief A message of the control plane: a decision, or what a decision needs, between the
 * cells' nodes (ControlChannel).
 *
 * A fixed 40-byte head and then `items` items of 16 bytes, network byte order:
 *
 * | offset | width | field      | rule                                                  |
 * |--------|-------|------------|-------------------------------------------------------|
 * | 0      | 2     | magic      | 0x4350 ("CP")                                         |
 * | 2      | 1     | version    | 1                                                     |
 * | 3      | 1     | type       | Type, [1, 13]                                         |
 * | 4      | 1     | code       | NOTICE: RanEvent [0, 5]; RESERVE_ANSWER, PLAN:        |
 * |        |       |            | AdmissionCode [0, 3]; PROGRESS: Progress [0, 1];      |
 * |        |       |            | else 0                                                |
 * | 5      | 1     | reserved   | 0                                                     |
 * | 6      | 2     | fromCell   | >= 1: the cell whose node sends it                    |
 * | 8      | 2     | aboutCell  | >= 1: the cell it concerns (a handover's target)      |
 * | 10     | 2     | items      | PREFILL_REQUEST, BUDGET, PROGRESS: [1, MAX_ITEMS];    |
 * |        |       |            | RESERVE_ANSWER: 1; PLAN, RESERVE, PREPARE, and a      |
 * |        |       |            | NOTICE of HANDOVER_STARTED: [0, 1]; else 0            |
 * | 12     | 4     | sequence   | NOTICE, RESERVE, RESERVE_ANSWER, PLAN, PREPARE,       |
 * |        |       |            | RELEASE: the UE's event number; PREFILL_REQUEST: the  |
 * |        |       |            | handover's number (its record); CANCEL: the epoch the |
 * |        |       |            | target expects from then on; LOAD: the engine's last  |
 * |        |       |            | prefill rate, tokens/s (0: none yet); else the        |
 * |        |       |            | migration's epoch                                     |
 * | 16     | 8     | imsi       | >= 1; 0 in a LOAD, which concerns no UE               |
 * | 24     | 8     | value      | NOTICE of a FAILED handover: the reason [0, 3];       |
 * |        |       |            | RESERVE_ANSWER, PLAN: the target's free KV memory,    |
 * |        |       |            | tokens, before the reservation (a controller's PLAN   |
 * |        |       |            | passes its answer's on);                              |
 * |        |       |            | PREPARE: the predicted handover time, ns;             |
 * |        |       |            | PROGRESS of SENT: the sender's KV backlog, bytes;     |
 * |        |       |            | LOAD: queued prefill tokens x 2^32 + the time to the  |
 * |        |       |            | end of the engine's iteration, us (each < 2^32);      |
 * |        |       |            | else the type's count (tokens, bytes)                 |
 * | 32     | 8     | sentAt     | >= 0: the sender's clock, ns                          |
 *
 * An item is (imsi 8, sequence 4, value 4), imsi >= 1: one session's part of a batch. A
 * RESERVE_ANSWER's one item, and a PLAN's if it has one, is the target's report: the UE, its
 * event number, and the microseconds from sentAt to the end of the target engine's iteration
 * (0: it is idle, or the iteration has ended). A PLAN from the target carries it; one from the
 * controller passes the answer's on, counted from its own sentAt. The one item of a NOTICE of
 * HANDOVER_STARTED, a RESERVE (which passes its notice's on) or a PREPARE, if it has one, is
 * the session's size at the holder that sent it: the UE, its context tokens (in the item's
 * sequence field) and the tokens it has left to generate (value). The target admits the
 * session with that size when the message reaches it, and its answer's code says how.
 */
struct ControlMessage
{
    /// What a message is.
    enum Type : uint8_t
    {
        NOTICE = 1,          //!< a RAN event (code: RanEvent) to the policy's node
        PLAN = 2,            //!< a handover's plan, to its source and its target
        RESERVE = 3,         //!< reserve KV memory for a session at the target
        RESERVE_ANSWER = 4,  //!< the target's answer: its free KV memory (value, tokens)
        PREFILL_REQUEST = 5, //!< prefill these sessions (items: imsi, handover, tokens)
        RESUME_NOTICE = 6,   //!< the target resumed a session
        BUDGET = 7,          //!< a slot's byte budgets, to a sender (items: imsi, epoch, bytes)
        PROGRESS = 8,        //!< what a sender sent in a slot (items: imsi, epoch, bytes)
        PREPARE = 9,         //!< prepare a predicted handover (aboutCell: its target)
        CANCEL = 10,         //!< a migration ended before its resume, to its target
        LOAD = 11,           //!< a cell's GPU load, to a neighbour (PallasController)
        WINDOW_END = 12,     //!< a resume deadline passed at the source, to its target
        RELEASE = 13,        //!< a reservation no migration took, to its target: it frees it
    };

    /// The RAN event a NOTICE reports (HandoverCoordinator's inputs).
    enum RanEvent : uint8_t
    {
        HANDOVER_STARTED = 0, //!< the source started a handover to aboutCell
        UE_READY = 1,         //!< the UE is connected at fromCell
        HANDOVER_FAILED = 2,  //!< a handover failed (value: the reason)
        UE_RELEASED = 3,      //!< the UE's context was released at fromCell
        LINK_FAILURE = 4,     //!< a radio link failure at fromCell
        HANDOVER_DONE = 5,    //!< the UE completed its handover at fromCell
    };

    /// Whose count a PROGRESS reports (its code).
    enum Progress : uint8_t
    {
        SENT = 0,     //!< the sender's: bytes it sent (value: its KV backlog to aboutCell)
        RECEIVED = 1, //!< the target's: bytes that arrived (value: 0)
    };

    /// How a target admitted the session a reservation sized (the code of a RESERVE_ANSWER, and
    /// of a PLAN that a target sends or the controller passes on): LlmEngine::Admission's
    /// three outcomes, in its order, or none.
    enum AdmissionCode : uint8_t
    {
        ADMITTED = 0,     //!< its KV memory is held
        WAITING = 1,      //!< it waits in the target's admission queue
        REJECTED = 2,     //!< not admitted: it can never fit, or TargetMemoryFull Fallback
        NOT_RESERVED = 3, //!< no admission: no size came, or the cell holds the session already
    };

    /// One session's part of a batch.
    struct Item
    {
        uint64_t imsi{0};     //!< the UE, >= 1
        uint32_t sequence{0}; //!< its migration's epoch, or handover's number (as the head's)
        uint32_t value{0};    //!< tokens or bytes, by the message's type
    };

    static constexpr uint16_t MAGIC = 0x4350;   //!< first two bytes of every message
    static constexpr uint8_t VERSION = 1;       //!< the version this code speaks
    static constexpr uint32_t HEAD_SIZE = 40;   //!< bytes before the items
    static constexpr uint32_t ITEM_SIZE = 16;   //!< bytes of an item
    static constexpr uint16_t MAX_ITEMS = 1024; //!< items a message may carry
    static constexpr uint8_t MAX_FAILURE = 3;   //!< the largest HANDOVER_FAILED reason
    /// The controller node's id in fromCell and aboutCell (a cell's id is below it)
    static constexpr uint16_t CONTROLLER = 0xFFFF;

    Type type{NOTICE};       //!< what it is
    uint8_t code{0};         //!< by type, see the table
    uint16_t fromCell{0};    //!< the sender's cell
    uint16_t aboutCell{0};   //!< the cell it concerns
    uint32_t sequence{0};    //!< notice number or epoch
    uint64_t imsi{0};        //!< the UE
    uint64_t value{0};       //!< by type, see the table
    int64_t sentAtNs{0};     //!< when it was sent, ns
    std::vector<Item> items; //!< a batch's sessions

    /**
     * \param type its type \param imsi the UE it concerns \param about the cell it concerns
     * \param sequence its sequence, by type
     * \return a message of one UE, its code, value and items 0 or none; the ControlChannel
     *         that sends it fills in its sending cell and time
     */
    static ControlMessage ForUe(Type type, uint64_t imsi, uint16_t about, uint32_t sequence);

    /// \return the message's bytes on the wire
    uint32_t GetSerializedSize() const;

    /**
     * \brief Write the message. A message that breaks a rule of the table stops the run: it
     * would be refused at the other end.
     * \return its bytes
     */
    std::vector<uint8_t> Serialize() const;

    /**
     * \brief Read a message's head.
     * \param data at least HEAD_SIZE bytes
     * \param [out] out the message, without items
     * \param [out] why the first rule it breaks, if any
     * \return false if it breaks a rule
     */
    static bool ParseHead(const uint8_t* data, ControlMessage& out, std::string& why);

    /**
     * \brief Read an item.
     * \param data ITEM_SIZE bytes
     * \param [out] out the item
     * \param [out] why the rule it breaks, if any
     * \return false if it breaks a rule
     */
    static bool ParseItem(const uint8_t* data, Item& out, std::string& why);

    /// \return the message, one line, for logs
    std::string ToString() const;

    /// \param type a type \return its name
    static std::string TypeName(Type type);
};

/**
 * \ingroup edge-llm
 * \brief Cuts the byte stream of one control connection into messages.
 *
 * TCP may cut the stream anywhere. The parser holds a message's bytes until it is whole. A
 * head or an item that breaks a rule means the stream lost its framing: the parser is then
 * broken for good, and every later byte is dropped.
 */
class ControlStreamParser
{
  public:
    /**
     * \brief Take bytes from the stream.
     * \param data the bytes (may be null if size is 0) \param size how many
     * \return the messages they complete, in order
     */
    std::vector<ControlMessage> Push(const uint8_t* data, uint64_t size);

    /// \return true once the framing was lost
    bool IsBroken() const;

    /// \return why the framing was lost, or an empty string
    const std::string& GetError() const;

    /// \return bytes of a message held, not yet whole
    uint32_t GetHeldBytes() const;

  private:
    std::vector<uint8_t> m_held; //!< bytes of the message not yet whole
    ControlMessage m_message;    //!< its head, once read
    std::size_t m_itemCount{0};  //!< items its head announced
    bool m_haveHead{false};      //!< m_message's head is read
    bool m_broken{false};        //!< the framing was lost
    std::string m_error;         //!< the rule broken
};

} // namespace ns3

#endif /* EDGE_LLM_CONTROL_MESSAGE_H */
