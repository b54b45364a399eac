//! Can pictures drawn pixel by pixel (2x supersampled), so the demo needs no image files. A crate of its own
//! so that it alone is optimised in debug builds (the workspace's Cargo.toml): drawing the demo's drinks at
//! opt-level 0 takes seconds, while optimising the whole gateway made every build of it slower.

const W: usize = 480;
const H: usize = 600;
const SS: usize = 2;

fn mix(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|i| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * t).round() as u8)
}

/// The colour at (x, y) in picture units (0..W, 0..H).
fn shade(x: f32, y: f32, body: [u8; 3], accent: [u8; 3]) -> [u8; 3] {
    let background = mix(
        mix(accent, [255, 255, 255], 0.55),
        mix(body, [255, 255, 255], 0.75),
        y / H as f32,
    );
    let (cx, left, right, top, bottom) = (W as f32 / 2.0, 150.0, 330.0, 110.0, 520.0);
    let half = (right - left) / 2.0;
    // Bubbles behind the can.
    for (bx, by, r) in [
        (90.0, 140.0, 22.0),
        (60.0, 260.0, 12.0),
        (400.0, 180.0, 16.0),
        (420.0, 420.0, 26.0),
        (95.0, 470.0, 18.0),
        (380.0, 90.0, 9.0),
    ] {
        let d = ((x - bx) * (x - bx) + (y - by) * (y - by)).sqrt();
        if d < r && d > r - 4.0 {
            return mix(background, [255, 255, 255], 0.8);
        }
    }
    let inside_x = x >= left && x <= right;
    let rim = 18.0;
    // Top and bottom ellipses make it read as a cylinder.
    let ex = (x - cx) / half;
    let top_e = (y - top) / rim;
    let bottom_e = (y - bottom) / rim;
    if ex * ex + top_e * top_e <= 1.0 {
        let inner = ex * ex * 1.3 + top_e * top_e * 1.8 <= 1.0;
        return if inner {
            [200, 200, 205]
        } else {
            [160, 160, 168]
        };
    }
    if inside_x && y > top && y < bottom || ex * ex + bottom_e * bottom_e <= 1.0 {
        // Cylinder lighting: bright stripe left of centre, darker edges.
        let u = (x - left) / (right - left);
        let light = 1.0 - ((u - 0.32) * 2.2).powi(2);
        let mut colour = body;
        let band = (y - 250.0).abs() < 70.0;
        if band {
            colour = accent;
            if (y - 250.0).abs() < 8.0 {
                colour = mix(body, [255, 255, 255], 0.3);
            }
        }
        if light > 0.0 {
            colour = mix(colour, [255, 255, 255], light * 0.35);
        } else {
            colour = mix(colour, [0, 0, 0], (-light) * 0.25);
        }
        return colour;
    }
    // Shadow under the can.
    let sx = (x - cx) / (half + 20.0);
    let sy = (y - bottom - 6.0) / 14.0;
    if sx * sx + sy * sy < 1.0 {
        return mix(background, [0, 0, 0], 0.18);
    }
    background
}

/// A PNG of a drinks can in `body` colour with an `accent` label.
pub fn can(body: [u8; 3], accent: [u8; 3]) -> Vec<u8> {
    let mut pixels = Vec::with_capacity(W * H * 3);
    for py in 0..H {
        for px in 0..W {
            let mut sum = [0u32; 3];
            for sy in 0..SS {
                for sx in 0..SS {
                    let x = px as f32 + (sx as f32 + 0.5) / SS as f32;
                    let y = py as f32 + (sy as f32 + 0.5) / SS as f32;
                    let c = shade(x, y, body, accent);
                    for i in 0..3 {
                        sum[i] += u32::from(c[i]);
                    }
                }
            }
            pixels.extend(sum.map(|v| (v / (SS * SS) as u32) as u8));
        }
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, W as u32, H as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder.write_header().expect("PNG header");
        writer.write_image_data(&pixels).expect("PNG data");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_can_is_a_real_png() {
        let bytes = super::can([178, 34, 34], [250, 235, 215]);
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (480, 600));
    }
}
