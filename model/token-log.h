/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_LLM_TOKEN_LOG_H
#define EDGE_LLM_TOKEN_LOG_H

#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <fstream>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup edge-llm
 * \brief The CSV log of every token delivered to a UE's application, shared by all clients
 * of a run.
 *
 * Columns, in this order, after one header line:
 *
 * | column | meaning |
 * |---|---|
 * | scheme | a label of the run (for example the handover scheme), set with SetScheme |
 * | imsi | the session |
 * | token_index | index of the token in the session, 0 first |
 * | generated_s | when the server generated it, s, 9 decimals |
 * | delivered_s | when the client delivered it in order, s, 9 decimals |
 * | cell_id | cell of the packet that made the token deliverable |
 * | resent | 1 if the delivered copy came in a resent packet, else 0 |
 *
 * Rows are written as they come: the log keeps no per-token state, so a long run costs disk,
 * not memory. Times are printed from their integer nanoseconds, so they are exact.
 */
class TokenLog : public SimpleRefCount<TokenLog>
{
  public:
    /// The header line, without its newline.
    static constexpr const char* HEADER =
        "scheme,imsi,token_index,generated_s,delivered_s,cell_id,resent";

    /**
     * \brief Log to a file, created or truncated; the run stops if it cannot be opened.
     * \param path the file
     */
    explicit TokenLog(const std::string& path);

    /**
     * \brief Log to a stream the caller owns and keeps alive as long as the log.
     * \param os the stream
     */
    explicit TokenLog(std::ostream& os);

    /**
     * \brief Set the label written in the scheme column of the rows that follow.
     *
     * Throws std::invalid_argument if the label holds a comma, a quote, or a line break,
     * which would break the CSV.
     *
     * \param scheme the label; empty by default
     */
    void SetScheme(const std::string& scheme);

    /// \return the label of the scheme column
    const std::string& GetScheme() const;

    /**
     * \brief Write one row.
     * \param imsi the session
     * \param tokenIndex the token's index in the session
     * \param generated when the server generated it
     * \param delivered when the client delivered it
     * \param cellId the cell of the packet that made it deliverable
     * \param resent the delivered copy was resent
     */
    void Write(uint64_t imsi,
               uint32_t tokenIndex,
               Time generated,
               Time delivered,
               uint16_t cellId,
               bool resent);

    /// \return rows written so far, the header not counted
    uint64_t GetRows() const;

    /// \return false once a write to the file or stream has failed
    bool IsGood() const;

    /// Flush the file or stream.
    void Flush();

    /**
     * \brief Seconds with exactly nine decimals, from integer nanoseconds.
     * \param ns a time in ns, may be negative
     * \return for example "1.250000000"
     */
    static std::string FormatSeconds(int64_t ns);

  private:
    std::ofstream m_file; //!< the file, when the log owns one
    std::ostream* m_os;   //!< where rows go
    std::string m_scheme; //!< the scheme column
    uint64_t m_rows{0};   //!< rows written
};

} // namespace ns3

#endif /* EDGE_LLM_TOKEN_LOG_H */
