#!/usr/bin/env python3
"""Writes an API Gateway HTTP API (payload 2.0) event file for one route, as the functions' tests read them.

    scripts/new-event.py events/auth/verify-code.json POST /api/user/verify/ \
        --body '{"email": "EMAIL", "code": "CODE"}'
    scripts/new-event.py events/catalog/get-product.json GET /api/product/PRODUCT_ID --param _id=PRODUCT_ID

--token NAME adds `Authorization: Bearer NAME` (a placeholder the test replaces); --query k=v adds a query.
--image sends a multipart/form-data body with one `image` part (a 1x1 PNG), base64-encoded as API Gateway
sends binary bodies.
"""
import argparse
import base64
import json
import struct
import zlib

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("method")
parser.add_argument("path")
parser.add_argument("--body")
parser.add_argument("--token")
parser.add_argument("--param", action="append", default=[])
parser.add_argument("--query", action="append", default=[])
parser.add_argument("--image", action="store_true")
args = parser.parse_args()

BOUNDARY = "----events-fixture-boundary"


def tiny_png():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x0b\x5d\x34\xff")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def multipart_png():
    head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"can.png\"\r\n"
            "Content-Type: image/png\r\n\r\n").encode()
    return head + tiny_png() + f"\r\n--{BOUNDARY}--\r\n".encode()


params = dict(p.split("=", 1) for p in args.param)
query = dict(q.split("=", 1) for q in args.query)
route = args.path
for name, value in params.items():
    route = route.replace(value, "{" + name + "}")
headers = {"accept": "application/json", "host": "api.example.com", "user-agent": "events-fixture"}
if args.body is not None:
    headers["content-type"] = "application/json"
if args.image:
    headers["content-type"] = f"multipart/form-data; boundary={BOUNDARY}"
if args.token:
    headers["authorization"] = f"Bearer {args.token}"
event = {
    "version": "2.0",
    "routeKey": f"{args.method} {route}",
    "rawPath": args.path,
    "rawQueryString": "&".join(f"{k}={v}" for k, v in query.items()),
    "headers": headers,
}
if query:
    event["queryStringParameters"] = query
if params:
    event["pathParameters"] = params
event["requestContext"] = {
    "accountId": "123456789012", "apiId": "shopapi", "domainName": "api.example.com", "domainPrefix": "api",
    "http": {"method": args.method, "path": args.path, "protocol": "HTTP/1.1", "sourceIp": "203.0.113.10",
             "userAgent": "events-fixture"},
    "requestId": "fixture-request", "routeKey": f"{args.method} {route}", "stage": "$default",
    "time": "22/Nov/2026:10:00:00 +0000", "timeEpoch": 1795341600000,
}
event["isBase64Encoded"] = args.image
if args.body is not None:
    event["body"] = json.dumps(json.loads(args.body))
if args.image:
    event["body"] = base64.b64encode(multipart_png()).decode()
with open(args.file, "w") as out:
    out.write(json.dumps(event, indent=2) + "\n")
