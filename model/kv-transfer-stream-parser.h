/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_KV_TRANSFER_STREAM_PARSER_H
#define EDGE_LLM_KV_TRANSFER_STREAM_PARSER_H

#include "kv-transfer-header.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief Cuts the byte stream of one KV-transfer connection into headers and payloads.
 *
 * TCP delivers the stream in pieces cut anywhere, so a header may straddle them. The parser
 * holds header bytes until it has a whole header, and counts payload bytes without reading
 * them: payloads are virtual. A header that breaks a rule means the stream lost its framing;
 * the parser is then broken for good and every later byte is unframed.
 */
class KvTransferStreamParser
{
  public:
    /// What a call to Next() found.
    enum class Event : uint8_t
    {
        NONE,         //!< header bytes held; the header is not whole yet
        HEADER,       //!< a valid header is whole: GetHeader()
        PAYLOAD,      //!< payload bytes of the current message
        FRAMING_LOST, //!< the header just completed breaks a rule: GetError()
        UNFRAMED,     //!< bytes after the framing was lost
    };

    /// The result of one call to Next().
    struct Step
    {
        Event event{Event::NONE}; //!< what was found
        uint64_t consumed{0};     //!< bytes of the input used
        bool messageEnd{false};   //!< the current message is whole with these bytes
    };

    /**
     * \brief Take the next piece from the front of the input.
     * \param data the input's bytes; read only when a header is wanted (not InPayload() and
     * not IsBroken()), and may be null otherwise
     * \param size bytes of input
     * \return what was found, and how many bytes it used
     */
    Step Next(const uint8_t* data, uint64_t size);

    /// \return true if the next bytes are payload of the current message
    bool InPayload() const;
    /// \return true once the framing was lost
    bool IsBroken() const;
    /// \return bytes of a header held, not yet whole
    uint32_t GetHeldBytes() const;
    /// \return payload bytes of the current message still to come
    uint64_t GetPayloadLeft() const;
    /// \return the header of the current (or last) message
    const KvTransferHeader& GetHeader() const;
    /// \return why the framing was lost, or an empty string
    const std::string& GetError() const;

  private:
    std::array<uint8_t, KvTransferHeader::SERIALIZED_SIZE> m_held{}; //!< header bytes held
    uint32_t m_fill{0};                                              //!< of m_held
    uint64_t m_payloadLeft{0}; //!< payload bytes of the current message still to come
    KvTransferHeader m_header; //!< the current message
    bool m_broken{false};      //!< the framing was lost
    std::string m_error;       //!< the rule the header broke
};

} // namespace ns3

#endif /* EDGE_LLM_KV_TRANSFER_STREAM_PARSER_H */
