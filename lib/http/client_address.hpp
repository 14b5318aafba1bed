#pragma once
// Who a connection comes from, as the per-client limits count it: an IPv4 address as written, an
// IPv6 address by its /64 (one host is handed a whole /64, so counting single addresses would let
// it appear as 2^64 clients), an IPv4-mapped IPv6 address as its IPv4 address.
#include <string>

#include <boost/asio/ip/address.hpp>

namespace sextant {

std::string client_key(const boost::asio::ip::address& address);

}  // namespace sextant
